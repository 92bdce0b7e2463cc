package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.PriceAdmin;
import dev.detour.core.ValidationException;
import dev.detour.gateway.PoolSnapshot;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** S-3 model prices in the console ({@code /prices}): the table and a form to set or clear one model's price. */
final class PricesServlet extends HttpServlet {
    private final transient PriceAdmin prices;
    private final transient PoolSnapshot snapshot;
    private final transient View view;

    PricesServlet(PriceAdmin prices, PoolSnapshot snapshot, View view) {
        this.prices = prices;
        this.snapshot = snapshot;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        render(request, response, null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            prices.put(Actors.of(request), request.getParameter("model"), micros(request, "input_micros_per_m"),
                    micros(request, "output_micros_per_m"));
            snapshot.reload();
            response.setStatus(303);
            response.setHeader("Location", "/prices");
        } catch (ValidationException e) {
            response.setStatus(422);
            render(request, response, e);
        }
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

    private void render(HttpServletRequest request, HttpServletResponse response, ValidationException error)
            throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("prices", prices.list());
        model.put("error", error == null ? null : Map.of("code", error.code(), "message", error.getMessage()));
        view.render(request, response, "smart/prices", model, null);
    }
}
