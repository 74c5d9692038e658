package dev.makeroom.mapping;

import dev.makeroom.core.model.PodClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's resource claims with the ResourceClaim serving each: the one {@code resourceClaimName}
 * names, or for a template the one {@code status.resourceClaimStatuses} says the resourceclaim
 * controller made (none yet: null).
 */
final class PodClaims {

    private PodClaims() {
    }

    static List<PodClaim> of(PodSpec spec, PodStatus status) {
        if (spec.getResourceClaims() == null || spec.getResourceClaims().isEmpty()) {
            return List.of();
        }
        Map<String, String> made = new HashMap<>();
        if (status != null && status.getResourceClaimStatuses() != null) {
            for (PodResourceClaimStatus s : status.getResourceClaimStatuses()) {
                if (s != null && s.getName() != null) {
                    made.put(s.getName(), s.getResourceClaimName());
                }
            }
        }
        List<PodClaim> claims = new ArrayList<>();
        for (PodResourceClaim claim : spec.getResourceClaims()) {
            if (claim == null || claim.getName() == null) {
                continue;
            }
            claims.add(new PodClaim(claim.getName(), claim.getResourceClaimName() != null ? claim.getResourceClaimName()
                    : made.get(claim.getName())));
        }
        return claims;
    }
}
