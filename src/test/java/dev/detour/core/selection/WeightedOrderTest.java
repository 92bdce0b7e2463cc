package dev.detour.core.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The weighted draw keeps its weights in a primitive array (a plan orders its shortlist on every request). Guard:
 * for any weights and seed it gives exactly the order of the plain rule — draw among the items left with
 * probability weight / remaining total, remove, repeat; a weight ≤ 0 counts as 1 — draw for draw.
 */
class WeightedOrderTest {
    @Test
    void everyOrderIsThePlainRulesDrawForDraw() {
        Random random = new Random(5);
        for (int round = 0; round < 2_000; round++) {
            List<Long> weights = new ArrayList<>();
            int size = random.nextInt(9);
            for (int i = 0; i < size; i++) {
                weights.add(random.nextInt(4) == 0 ? -random.nextInt(3) : (long) random.nextInt(20_000_000));
            }
            List<Integer> items = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                items.add(i);
            }
            long seed = random.nextLong();

            List<Integer> order = WeightedOrder.order(items, weights::get, new SeededRandom(seed));

            assertEquals(plainRule(items, weights, new SeededRandom(seed)), order, "round " + round);
        }
    }

    private static List<Integer> plainRule(List<Integer> items, List<Long> weightOf, RandomSource random) {
        List<Integer> left = new ArrayList<>(items);
        List<Integer> ordered = new ArrayList<>();
        while (!left.isEmpty()) {
            long total = 0;
            for (int item : left) {
                total += Math.max(1, weightOf.get(item));
            }
            int index = 0;
            if (left.size() > 1) {
                long point = random.nextLong(total);
                while (point >= Math.max(1, weightOf.get(left.get(index)))) {
                    point -= Math.max(1, weightOf.get(left.get(index)));
                    index++;
                }
            }
            ordered.add(left.remove(index));
        }
        return ordered;
    }
}
