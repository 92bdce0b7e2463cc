package dev.detour.admin;

/** A group create/update request, type-checked by the adapter; null = absent (keep / default). */
public record GroupPatch(String name, Long ratioPpm, String color, String haltPolicy) {
}
