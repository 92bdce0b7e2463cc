package dev.detour.adapter.view;

import org.thymeleaf.context.ITemplateContext;
import org.thymeleaf.messageresolver.IMessageResolver;

/** Thymeleaf's {@code #{…}} over {@link ConsoleMessages}, so templates and Java share one UTF-8 bundle. */
final class BundleMessageResolver implements IMessageResolver {
    @Override
    public String getName() {
        return "detour-bundle";
    }

    @Override
    public Integer getOrder() {
        return 0;
    }

    @Override
    public String resolveMessage(ITemplateContext context, Class<?> origin, String key, Object[] messageParameters) {
        if (ConsoleMessages.pattern(context.getLocale(), key).isEmpty()) {
            return null;
        }
        return ConsoleMessages.get(context.getLocale(), key, messageParameters);
    }

    @Override
    public String createAbsentMessageRepresentation(ITemplateContext context, Class<?> origin, String key,
            Object[] messageParameters) {
        return ConsoleMessages.get(context.getLocale(), key);
    }
}
