package dev.detour.bridge;

import dev.detour.bridge.Conversation.Role;
import dev.detour.bridge.Conversation.Turn;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a history of alternating turns, as Messages requires: parts of consecutive messages of one role
 * join one turn (Chat's tool messages and the user message after them become one user turn), and in a
 * user turn the tool results come first (Messages requires them before any other content).
 */
final class Turns {
    private final List<Role> roles = new ArrayList<>();
    private final List<List<Part>> parts = new ArrayList<>();

    void add(Role role, Part part) {
        if (part instanceof Part.Text t && t.text().isEmpty()) {
            return; // Messages refuses empty text blocks; an empty text says nothing in any protocol
        }
        if (roles.isEmpty() || roles.get(roles.size() - 1) != role) {
            roles.add(role);
            parts.add(new ArrayList<>());
        }
        List<Part> turn = parts.get(parts.size() - 1);
        if (part instanceof Part.ToolResult) {
            int firstOther = 0;
            while (firstOther < turn.size() && turn.get(firstOther) instanceof Part.ToolResult) {
                firstOther++;
            }
            turn.add(firstOther, part);
        } else {
            turn.add(part);
        }
    }

    void addAll(Role role, List<Part> list) {
        list.forEach(p -> add(role, p));
    }

    List<Turn> build() {
        List<Turn> out = new ArrayList<>();
        for (int i = 0; i < roles.size(); i++) {
            out.add(new Turn(roles.get(i), List.copyOf(parts.get(i))));
        }
        return out;
    }
}
