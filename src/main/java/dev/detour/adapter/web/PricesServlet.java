package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.PriceAdmin;
import dev.detour.core.ValidationException;
import dev.detour.gateway.live.PoolSnapshot;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;

/** S-3 model prices in the console ({@code /prices}): the table and a form to set or clear one model's price. */
final class PricesServlet extends TablePageServlet {
    private final transient PriceAdmin prices;

    PricesServlet(PriceAdmin prices, PoolSnapshot snapshot, View view) {
        super(snapshot, view, "/prices", "smart/prices");
        this.prices = prices;
    }

    @Override
    void apply(HttpServletRequest request) {
        Map<String, Long> micros = new LinkedHashMap<>();
        micros.put("input_micros_per_m", micros(request, "input_micros_per_m"));
        micros.put("output_micros_per_m", micros(request, "output_micros_per_m"));
        PriceAdmin.CACHE_FIELDS.forEach(field -> micros.put(field, micros(request, field))); // B-4: empty = default
        prices.put(Actors.of(request), request.getParameter("model"), micros);
    }

    @Override
    void addRows(Map<String, Object> model) {
        model.put("prices", prices.list());
    }

    private static Long micros(HttpServletRequest request, String field) {
        String text = request.getParameter(field);
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new ValidationException("validation.price." + field, field, field + " must be a whole number ≥ 0");
        }
    }
}
