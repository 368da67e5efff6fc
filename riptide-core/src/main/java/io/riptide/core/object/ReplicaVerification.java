package io.riptide.core.object;

import java.util.Optional;

/** A replica's bytes checked: the decoded object when it passed, and the verdict either way. */
public record ReplicaVerification(Verification verification, Optional<WebObject> object) {
    public ReplicaVerification {
        if (verification.ok() != object.isPresent()) {
            throw new IllegalArgumentException("an object goes with, and only with, an accepted verification");
        }
    }

    public boolean ok() {
        return verification.ok();
    }
}
