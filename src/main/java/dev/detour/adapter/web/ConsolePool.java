package dev.detour.adapter.web;

import dev.detour.admin.AccountAdmin;
import dev.detour.admin.board.AccountBoard;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.ModelTestAction;

/**
 * The use cases behind the console's pool screens (U-2…U-5). {@code modelTest} may be null (the test
 * button is then hidden); {@code afterChange} reloads this instance's pool snapshot after every
 * console mutation (O-4), so proxy traffic sees it at once.
 */
public record ConsolePool(AccountAdmin accounts, GroupAdmin groups, KeyAdmin keys, ModelAdmin models,
        AccountBoard board, ModelTestAction modelTest, Runnable afterChange) {
}
