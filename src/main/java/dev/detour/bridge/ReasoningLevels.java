package dev.detour.bridge;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * B-2: OpenAI's reasoning effort and Anthropic's thinking budget, one in terms of the other. The budgets
 * follow Anthropic's guidance (1,024 tokens is its minimum; tens of thousands for hard problems):
 * minimal 1,024 · low 4,096 · medium 10,000 · high 32,000 tokens; back, a budget below 4,096 reads as
 * low, below 16,000 as medium, anything larger as high (minimal is never chosen: not every OpenAI model
 * takes it). A budget must stay below {@code max_tokens} (Anthropic refuses it otherwise), so
 * {@link #fit} shrinks it, and leaves thinking off when even the minimum does not fit.
 */
final class ReasoningLevels {
    static final int MIN_BUDGET = 1024;
    /** Messages requires max_tokens; a client of another protocol that gave none gets this much. */
    static final int DEFAULT_MAX_TOKENS = 8192;

    private ReasoningLevels() {
    }

    static String effortOf(Conversation.Reasoning reasoning) {
        return reasoning.effort() != null ? reasoning.effort() : effortFor(reasoning.budget());
    }

    static int budgetOf(Conversation.Reasoning reasoning) {
        return reasoning.budget() != null ? reasoning.budget() : budgetFor(reasoning.effort());
    }

    static int budgetFor(String effort) {
        return switch (effort == null ? "medium" : effort) {
            case "minimal" -> MIN_BUDGET;
            case "low" -> 4096;
            case "high", "xhigh", "max" -> 32000;
            default -> 10000;
        };
    }

    static String effortFor(int budget) {
        if (budget < 4096) {
            return "low";
        }
        return budget < 16000 ? "medium" : "high";
    }

    /** A Claude model id's version: {@code claude-opus-4-7}, {@code claude-sonnet-4-20250514} (4.0), {@code claude-3-7-sonnet}. */
    private static final Pattern CLAUDE_VERSION = Pattern.compile("claude-(?:[a-z]+-)*?(\\d+)(?:[-.](\\d{1,2}))?(?![0-9])");

    /**
     * Claude models that take only adaptive thinking: 4.7 and later reject {@code budget_tokens} with a 400
     * (Anthropic's extended-thinking page; on 4.6 it is deprecated but still accepted, so 4.6 keeps budgets).
     */
    static boolean adaptiveOnly(String model) {
        Matcher m = CLAUDE_VERSION.matcher(model == null ? "" : model);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        return major > 4 || (major == 4 && minor >= 7);
    }

    /** Anthropic's effort levels for adaptive thinking: low, medium, high (minimal reads as low). */
    static String adaptiveEffort(Conversation.Reasoning reasoning) {
        return switch (effortOf(reasoning)) {
            case "minimal", "low" -> "low";
            case "high", "xhigh", "max" -> "high";
            default -> "medium";
        };
    }

    /**
     * The budget for this max_tokens: kept when it fits below, else half of max_tokens so the answer keeps
     * the other half; 0 ("leave thinking off") when that is under Anthropic's minimum.
     */
    static int fit(int budget, int maxTokens) {
        int fitted = budget < maxTokens ? budget : maxTokens / 2;
        return fitted < MIN_BUDGET ? 0 : fitted;
    }
}
