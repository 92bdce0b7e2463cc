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
        List<T> left = new ArrayList<>(items);
        List<Long> weights = new ArrayList<>();
        long total = 0;
        for (T item : left) {
            long w = Math.max(1, weight.applyAsLong(item));
            weights.add(w);
            total += w;
        }
        List<T> ordered = new ArrayList<>(items.size());
        while (!left.isEmpty()) {
            int index = left.size() == 1 ? 0 : pick(weights, total, random);
            ordered.add(left.remove(index));
            total -= weights.remove(index);
        }
        return ordered;
    }

    private static int pick(List<Long> weights, long total, RandomSource random) {
        long point = random.nextLong(total);
        for (int i = 0; i < weights.size(); i++) {
            point -= weights.get(i);
            if (point < 0) {
                return i;
            }
        }
        return weights.size() - 1;
    }
}
