package dev.detour.adapter.db;

/** The admin token's SHA-256 digest in {@code settings} (SQL in AdminTokenMapper.xml). */
public interface AdminTokenMapper {
    String SETTING = "admin_token_sha256";

    String selectDigest();

    /** INSERT IGNORE: 1 when this call stored the digest, 0 when another instance did first. */
    int insertDigest(AdminTokenRow row);
}
