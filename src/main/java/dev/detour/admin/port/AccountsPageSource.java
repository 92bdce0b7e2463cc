package dev.detour.admin.port;

import java.util.List;

/** What the console's accounts page shows (U-2): every account that is not archived, in pool order (priority ascending: lower is tried first). */
public interface AccountsPageSource {
    List<AccountListItem> list();
}
