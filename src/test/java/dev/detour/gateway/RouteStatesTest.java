package dev.detour.gateway;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.selection.ReasonCode;
import dev.detour.gateway.RouteStates.State;
import dev.detour.testkit.AccountMother;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** E-1 states from rejection reasons, and which unavailable routes a key holder's check may probe. */
class RouteStatesTest {
    static Stream<Arguments> reasons() {
        UnaryOperator<AccountMother> same = a -> a;
        return Stream.of(
                Arguments.of(ReasonCode.REJECTED_COOLING, same, State.UNAVAILABLE, true),
                Arguments.of(ReasonCode.REJECTED_MODEL_ERROR, same, State.UNAVAILABLE, true),
                Arguments.of(ReasonCode.REJECTED_MODEL_PAUSED, same, State.UNAVAILABLE, false),
                Arguments.of(ReasonCode.REJECTED_ACCOUNT_STATUS, op(a -> a.status(AccountStatus.ERROR)),
                        State.UNAVAILABLE, true),
                Arguments.of(ReasonCode.REJECTED_ACCOUNT_STATUS, op(a -> a.status(AccountStatus.WARNING)),
                        State.UNAVAILABLE, true),
                Arguments.of(ReasonCode.REJECTED_ACCOUNT_STATUS, op(a -> a.status(AccountStatus.PAUSED)),
                        State.UNAVAILABLE, false),
                Arguments.of(ReasonCode.REJECTED_ACCOUNT_STATUS, op(a -> a.status(AccountStatus.REVOKED)),
                        State.UNAVAILABLE, false),
                Arguments.of(ReasonCode.REJECTED_ACCOUNT_STATUS, op(a -> a.status(AccountStatus.ERROR).disabled()),
                        State.UNAVAILABLE, false),
                Arguments.of(ReasonCode.REJECTED_GROUP_HALTED, same, State.UNAVAILABLE, false),
                Arguments.of(ReasonCode.REJECTED_ADMIN_BLOCK, same, State.BLOCKED, false),
                Arguments.of(ReasonCode.REJECTED_RATIO_CEILING, same, State.OVER_CEILING, false),
                Arguments.of(ReasonCode.REJECTED_CONTRACT_MISMATCH, same, State.UNSUPPORTED, false));
    }

    private static UnaryOperator<AccountMother> op(UnaryOperator<AccountMother> f) {
        return f;
    }

    @ParameterizedTest(name = "[{index}] {0} → {2}, checkable {3}")
    @MethodSource("reasons")
    void eachRejectionHasAStateAndOnlyAutomaticTroubleMayBeChecked(ReasonCode reason,
            UnaryOperator<AccountMother> tweak, State state, boolean checkable) {
        Account account = tweak.apply(account(1)).build();

        assertEquals(state, RouteStates.rejectedState(reason));
        assertEquals(checkable, RouteStates.probeCanClear(reason, account));
    }

    @Test
    void reasonsThatAreNotTheRoutesStateAreNotShown() {
        assertEquals(null, RouteStates.rejectedState(ReasonCode.REJECTED_GROUP_SCOPE));
        assertEquals(null, RouteStates.rejectedState(ReasonCode.REJECTED_MODEL_UNMAPPED));
    }
}
