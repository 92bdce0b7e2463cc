package dev.detour.core.selection;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Protocols;
import dev.detour.core.keys.KeyStrategy;
import java.util.ArrayList;
import java.util.List;

/**
 * B-1: "serves natively" and "serves through a bridge" are two eligibility levels. Within a tier — a run of
 * ranked candidates of equal priority — the native ones come first, each level keeping the strategy's order.
 * {@code manual} is left alone: its order is the operator's own, and a bridged group it lists first stays first.
 * A plan without a bridged candidate out of place is returned as it is (no copy: N-10).
 */
final class NativeFirst {
    private NativeFirst() {
    }

    static List<Candidate> apply(List<Candidate> ranked, EndpointFamily client, KeyStrategy strategy) {
        if (strategy == KeyStrategy.MANUAL || !Protocols.conversational(client) || !outOfPlace(ranked, client)) {
            return ranked;
        }
        List<Candidate> out = new ArrayList<>(ranked.size());
        int start = 0;
        while (start < ranked.size()) {
            int priority = ranked.get(start).account().priority();
            int end = start;
            while (end < ranked.size() && ranked.get(end).account().priority() == priority) {
                end++;
            }
            addLevel(ranked, start, end, client, false, out);
            addLevel(ranked, start, end, client, true, out);
            start = end;
        }
        return out;
    }

    /** True when some bridged candidate is directly followed by a native one of the same tier. */
    private static boolean outOfPlace(List<Candidate> ranked, EndpointFamily client) {
        for (int i = 1; i < ranked.size(); i++) {
            Candidate before = ranked.get(i - 1);
            Candidate after = ranked.get(i);
            if (before.account().priority() == after.account().priority()
                    && Protocols.bridged(before.account(), client) && !Protocols.bridged(after.account(), client)) {
                return true;
            }
        }
        return false;
    }

    private static void addLevel(List<Candidate> ranked, int start, int end, EndpointFamily client, boolean bridged,
            List<Candidate> out) {
        for (int i = start; i < end; i++) {
            if (Protocols.bridged(ranked.get(i).account(), client) == bridged) {
                out.add(ranked.get(i));
            }
        }
    }
}
