package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.crypto.PassphraseSeal;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.AccountRepository;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.PoolTransfer;
import dev.detour.admin.PriceAdmin;
import dev.detour.admin.SiteSettings;
import dev.detour.admin.port.Changes;
import dev.detour.alerts.AlertChannels;
import dev.detour.alerts.ChannelDraft;
import dev.detour.core.ValidationException;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;

/**
 * W-2 over JSON. {@code GET /export}: the pool without upstream keys; {@code POST /export}
 * {@code {"include_keys":true,"passphrase":…}}: with them, sealed (the passphrase travels in a body, never in a
 * URL that access logs keep). {@code POST /import?dry_run=true|false} {@code {"document":…,"passphrase":…}} (or
 * the bare document): the diff, and on {@code dry_run=false} the import applied. Without {@code dry_run} an import
 * is a dry run.
 */
public final class PoolApi {
    /**
     * Where the document's objects are read; {@code channelsIn}: the alert channel use cases on the import's unit of
     * work (their store seals and audits each change there).
     */
    public record Sources(GroupAdmin groups, AccountAdmin accounts, AccountRepository upstreamKeys, SiteSettings settings,
            PriceAdmin prices, BlockAdmin blocks, KeyAdmin keys, AlertChannels channels,
            Function<Changes, AlertChannels> channelsIn) {
    }

    private final Sources sources;
    private final PoolTransfer transfer;
    private final Clock clock;

    public PoolApi(Sources sources, PoolTransfer transfer, Clock clock) {
        this.sources = sources;
        this.transfer = transfer;
        this.clock = clock;
    }

    static boolean serves(String resource) {
        return resource.equals("export") || resource.equals("import");
    }

    ApiResponse handle(ApiRequest request) {
        if (request.segments().size() != 1) {
            throw ApiException.notFound();
        }
        boolean export = request.segments().get(0).equals("export");
        if (export && request.method().equals("GET")) {
            if ("true".equals(request.query().apply("include_keys"))) {
                throw new ValidationException("validation.export.passphrase", "passphrase",
                        "keys are exported by POST /admin/api/export with the passphrase in the body");
            }
            return ApiResponse.ok(export(null));
        }
        if (!request.method().equals("POST")) {
            throw ApiException.methodNotAllowed();
        }
        ObjectNode body = request.body().get();
        return ApiResponse.ok(export ? export(body) : importDocument(request, body));
    }

    /** The document as the client should keep it; keys only with {@code include_keys} and a passphrase. */
    public ObjectNode export(ObjectNode body) {
        PassphraseSeal seal = null;
        if (body != null && body.path("include_keys").asBoolean(false)) {
            String passphrase = body.path("passphrase").asText("");
            if (passphrase.length() < PassphraseSeal.MIN_PASSPHRASE) {
                throw new ValidationException("validation.export.passphrase", "passphrase", "a passphrase of at least "
                        + PassphraseSeal.MIN_PASSPHRASE + " characters seals the exported keys");
            }
            seal = PassphraseSeal.create(passphrase);
        }
        return PoolDocument.export(pool(), sources.upstreamKeys()::apiKey, seal, clock.instant());
    }

    private ObjectNode importDocument(ApiRequest request, ObjectNode body) {
        boolean dryRun = !"false".equals(request.query().apply("dry_run"));
        JsonNode document = body.has("detour_export") ? body : body.path("document");
        String passphrase = body.path("passphrase").isTextual() ? body.get("passphrase").asText() : null;
        return importDocument(request.actor(), document, passphrase, dryRun);
    }

    /** Reads the document against the pool, applies it (or only checks it on a dry run), answers the diff. */
    public ObjectNode importDocument(String actor, JsonNode document, String passphrase, boolean dryRun) {
        PoolDocument.Reading reading = PoolDocument.read(document, passphrase, pool(), sources.upstreamKeys()::apiKey,
                sources.channels());
        // the channels are written in the pool's transaction: a document applies whole or not at all
        List<PoolTransfer.Item<ChannelDraft>> channels = reading.channels();
        transfer.apply(actor, reading.plan(), dryRun, channels.isEmpty() ? null : c -> {
            AlertChannels joined = sources.channelsIn().apply(c);
            for (PoolTransfer.Item<ChannelDraft> item : channels) {
                PoolTransfer.at(item, () -> item.existingId() == null ? joined.create(actor, item.patch())
                        : joined.update(actor, item.existingId(), item.patch()));
            }
        });
        ObjectNode answer = Documents.JSON.createObjectNode().put("dry_run", dryRun);
        answer.set("counts", Documents.JSON.valueToTree(reading.plan().counts()));
        answer.set("changes", reading.changes());
        return answer;
    }

    private PoolDocument.Pool pool() {
        return new PoolDocument.Pool(sources.groups().list(), sources.accounts().list(), sources.settings().current(),
                sources.prices().list(), sources.blocks().list(), sources.keys().list(), sources.channels().list());
    }
}
