package dev.detour.admin.port;

import java.time.Instant;
import java.util.List;

/**
 * The accounts store. Reads decode every stored column without ever failing (D-4: what cannot be
 * read is named in the account's config error); writes keep what an update did not send.
 */
public interface Accounts {
    /** Non-archived accounts, id order. */
    List<StoredAccount> active();

    /** Null when no such account. */
    StoredAccount byId(long id);

    /** Null when no account has this name. */
    Long idByName(String name);

    /** Inserts with an empty placeholder secret (the key is sealed under the new id next); the new id. */
    long insert(AccountConfig config, Instant now);

    /**
     * Writes the fields {@code sent} carries and bumps the account's revision. D-4: a field that was
     * unreadable {@code before} and is not sent keeps its stored column (R-2 likewise for recovery),
     * and an unreadable stored status is repaired to ok.
     */
    void update(StoredAccount before, AccountConfig after, AccountPatch sent, Instant now);

    void storeSecret(long id, String sealedKey, String keyHint);

    /** The sealed upstream key; null when no such account. */
    String sealedKey(long id);

    /** Its model rows and bindings go with it. */
    void delete(long id);
}
