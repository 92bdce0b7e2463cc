package dev.detour.admin.port;

/** U-1: console passwords are stored only as slow salted hashes. */
public interface PasswordCheck {
    String hash(String password);

    boolean verify(String password, String storedHash);
}
