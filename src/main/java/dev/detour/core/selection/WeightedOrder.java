package dev.detour.core.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A weighted random order without replacement: each next place is drawn among the items left
 * with probability weight / remaining total, so the first place is proportional to weight and
 * the rest is still a useful failover order. A weight ≤ 0 counts as 1 (never starved).
 */
public final class WeightedOrder {
    private WeightedOrder() {
    }

    public static <T> List<T> order(List<T> items, ToLongFunction<T> weight, RandomSource random) {
        // primitive weights, removed by shifting: a plan orders its shortlist on every request, and a boxed weight
        // per item (ppm values are far above Long's cache) was most of this method's time
        int left = items.size();
        Object[] pending = items.toArray();
        long[] weights = new long[left];
        long total = 0;
        for (int i = 0; i < left; i++) {
            @SuppressWarnings("unchecked")
            long w = Math.max(1, weight.applyAsLong((T) pending[i]));
            weights[i] = w;
            total += w;
        }
        List<T> ordered = new ArrayList<>(left);
        while (left > 0) {
            int index = left == 1 ? 0 : pick(weights, left, total, random);
            @SuppressWarnings("unchecked")
            T item = (T) pending[index];
            ordered.add(item);
            total -= weights[index];
            left--;
            System.arraycopy(pending, index + 1, pending, index, left - index);
            System.arraycopy(weights, index + 1, weights, index, left - index);
        }
        return ordered;
    }

    private static int pick(long[] weights, int count, long total, RandomSource random) {
        long point = random.nextLong(total);
        for (int i = 0; i < count; i++) {
            point -= weights[i];
            if (point < 0) {
                return i;
            }
        }
        return count - 1;
    }
}
