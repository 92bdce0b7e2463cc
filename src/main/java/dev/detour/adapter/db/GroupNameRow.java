package dev.detour.adapter.db;

/** A group's id and name, for the key holder's route page (E-1). */
public record GroupNameRow(long id, String name) {
}
