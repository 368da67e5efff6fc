package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.insert.InsertTrigger;
import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.http.Headers;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.object.VariantRecord;
import io.riptide.dolr.location.LocateResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Miss hints carry the request's variant-selecting fields through the cache manager to the gateway,
 * so the origin is asked for (and the overlay stores) the variants browsers ask for, and the URL's
 * base GUID says which fields select them. In simulation: a varying origin model behind a real gateway.
 */
class VariantHintsTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;

    @Test
    void aGzipAndAnIdentityMissEachStoreTheirOwnVariantAndTheBaseNamesTheVaryFields() throws Exception {
        Stub stub = new Stub(7, NODES, GROUPS, GATEWAY, true, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/style.css";
        Id base = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        Headers gzip = Headers.of("Accept-Encoding", "gzip, br");
        Headers identity = Headers.of("Accept-Encoding", "identity");
        for (int i = 0; i < 10; i++) {
            // Bursts of both variants, with the selecting field spelled differently: one insert per variant.
            stub.hint(GROUPS * (1 + i % 5), new MissHint(url, base, i % 2 == 0 ? gzip : Headers.of("accept-encoding", "gzip, br")));
            stub.hint(GROUPS * (1 + i % 5), new MissHint(url, base, identity));
            stub.run(Duration.ofMillis(40));
        }
        stub.run(Duration.ofSeconds(10));

        assertEquals(2, stub.manager(MANAGER).gateway().sent(), "one insert per variant per window");
        assertEquals(2, stub.manager(MANAGER).gateway().outcomes(Outcome.INSERTED));
        assertEquals(2, stub.originFetches());
        assertTrue(stub.originRequests().stream().anyMatch(h -> h.elements("Accept-Encoding").contains("gzip")),
                "the origin was asked with the browser's Accept-Encoding: " + stub.originRequests());
        assertTrue(stub.originRequests().stream().anyMatch(h -> h.elements("Accept-Encoding").equals(List.of("identity"))));

        LocateResult record = stub.read(12, base);
        assertTrue(record.found(), "the base GUID holds the variant record");
        assertTrue(VariantRecord.isVariantRecord(record.data()));
        VariantRecord parsed = VariantRecord.fromBytes(record.data());
        assertEquals(List.of("accept-encoding"), parsed.varyFields());
        assertTrue(parsed.signatureValid());

        assertEquals("gzip:body of " + url, bodyOfVariant(stub, url, parsed, gzip));
        assertEquals("body of " + url, bodyOfVariant(stub, url, parsed, identity));
        String absent = Variants.key(parsed.varyFields(), Headers.EMPTY).orElseThrow().toString();
        assertFalse(stub.read(12, ObjectNames.objectGuid(stub.provider.publicKey(), url, absent)).found(),
                "no fetch without Accept-Encoding, so no variant for requests that lack it");
    }

    @Test
    void credentialsInAHintNeverReachTheOrigin() {
        Stub stub = new Stub(8, NODES, GROUPS, GATEWAY, true, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/private";
        stub.hint(6, new MissHint(url, ObjectNames.objectGuid(stub.provider.publicKey(), url, ""),
                Headers.of("Accept-Encoding", "gzip", "Cookie", "session=secret", "Authorization", "Basic eDp5",
                        "X-Api-Key", "user-token", "User-Agent", "test")));
        stub.run(Duration.ofSeconds(10));
        assertEquals(1, stub.originFetches());
        Headers sent = stub.originRequests().get(0);
        assertFalse(sent.contains("Cookie") || sent.contains("Authorization") || sent.contains("X-Api-Key")
                || sent.contains("User-Agent"), "only the variant-selecting allow-list is passed on: " + sent);
        assertEquals(List.of("gzip"), sent.elements("Accept-Encoding"));
    }

    @Test
    void distinctAcceptLanguagesInHintsForOneUrlBuyAtMostTheCapOfInsertsPerWindow() {
        CacheManagerConfig config = CacheManagerConfig.defaults();
        Stub stub = new Stub(10, NODES, GROUPS, GATEWAY, false, config, MANAGER);
        String url = "http://example.com/popular";
        Id base = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        // The same variant spelled differently is one variant, and costs one insert.
        stub.hint(6, new MissHint(url, base, Headers.of("Accept-Language", "EN-GB,  en;q=0.8")));
        stub.hint(12, new MissHint(url, base, Headers.of("accept-language", "en-gb, en;q=0.8", "X-Api-Key", "a")));
        for (int i = 0; i < 100; i++) {
            stub.hint(GROUPS * (1 + i % 5), new MissHint(url, base, Headers.of("Accept-Language", "x-lang-" + i)));
            stub.run(Duration.ofMillis(10));
        }
        stub.run(Duration.ofMillis(500));
        assertEquals(InsertTrigger.MAX_VARIANTS_PER_URL, stub.manager(MANAGER).gateway().sent(),
                "one URL, at most " + InsertTrigger.MAX_VARIANTS_PER_URL + " distinct variants per window");

        stub.run(config.missWindow()); // the window closes: another window's worth
        for (int i = 100; i < 200; i++) {
            stub.hint(GROUPS * (1 + i % 5), new MissHint(url, base, Headers.of("Accept-Language", "x-lang-" + i)));
            stub.run(Duration.ofMillis(10));
        }
        stub.run(Duration.ofMillis(500));
        assertEquals(2 * InsertTrigger.MAX_VARIANTS_PER_URL, stub.manager(MANAGER).gateway().sent());
    }

    @Test
    void manyVariantsShareOneRecordAndAPlainCopyAfterwardsOutranksIt() throws Exception {
        Stub stub = new Stub(9, NODES, GROUPS, GATEWAY, true, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/page.html";
        Id base = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        for (String encoding : List.of("gzip", "identity", "br", "deflate")) {
            stub.hint(6 * (1 + encoding.length() % 5), new MissHint(url, base, Headers.of("Accept-Encoding", encoding)));
            stub.run(Duration.ofSeconds(2));
        }
        stub.run(Duration.ofSeconds(8));
        assertEquals(4, stub.manager(MANAGER).gateway().outcomes(Outcome.INSERTED));
        VariantRecord record = VariantRecord.fromBytes(stub.read(12, base).data());
        assertEquals(1, record.version(), "four variants inserted one after another, the record signed once");
        ObjectVerifier verifier = new ObjectVerifier(Set.of(stub.provider.publicKey()), new VersionFloor(16));
        assertTrue(verifier.verifyVariantRecord(record, base).ok());

        // The origin stops varying: the next insert stores a plain copy at the base GUID, and a reader
        // that already saw the record must accept it, so its version continues above the record's.
        stub.originVaries(false);
        stub.run(Duration.ofSeconds(11)); // past the cache manager's window for this URL
        stub.hint(6, new MissHint(url, base));
        stub.run(Duration.ofSeconds(10));
        byte[] now = stub.read(12, base).data();
        assertFalse(VariantRecord.isVariantRecord(now), "the plain copy replaced the record");
        CachedCopy plain = CachedCopy.fromBytes(now, 1 << 20);
        assertEquals(2, plain.object().certificate().version());
        assertTrue(verifier.verify(plain.object(), base).ok(), "above the record's version, so the floor lets it in");
    }

    private static String bodyOfVariant(Stub stub, String url, VariantRecord record, Headers request) throws Exception {
        String key = Variants.key(record.varyFields(), request).orElseThrow().toString();
        LocateResult r = stub.read(12, ObjectNames.objectGuid(stub.provider.publicKey(), url, key));
        assertTrue(r.found(), "variant " + key + " is in the overlay");
        CachedCopy copy = CachedCopy.fromBytes(r.data(), 1 << 20);
        assertEquals(key, copy.object().certificate().variantKey());
        return new String(copy.object().response().body(), StandardCharsets.UTF_8);
    }
}
