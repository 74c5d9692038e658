package dev.makeroom.cluster;

import java.util.Optional;

/** What the live view keeps of a gang's group object: which gang it stands for and the minimum it states. */
record PodGroupMinimum(String gangKey, Optional<Integer> minimum) {
}
