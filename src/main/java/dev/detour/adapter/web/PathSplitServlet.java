package dev.detour.adapter.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * Two screens under one servlet path ({@code /keys/*}: the keys list and the per-key policy
 * editor): path infos matching {@code pattern} go to {@code matching}, the rest to {@code others}.
 */
public final class PathSplitServlet extends HttpServlet {
    private final transient Pattern pattern;
    private final transient HttpServlet matching;
    private final transient HttpServlet others;

    public PathSplitServlet(Pattern pattern, HttpServlet matching, HttpServlet others) {
        this.pattern = pattern;
        this.matching = matching;
        this.others = others;
    }

    @Override
    public void init() throws ServletException {
        matching.init(getServletConfig());
        others.init(getServletConfig());
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String info = request.getPathInfo();
        (info != null && pattern.matcher(info).matches() ? matching : others).service(request, response);
    }
}
