package dev.makeroom.core.room;

import java.util.List;
import java.util.Map;

/**
 * What the pending pod's inter-pod constraints ask of one node's victims: pods that must go
 * ({@code forced}: uid → why), counts the victims must reach ({@code needs}), or that no victim set
 * on this node can work ({@code impossible}), or that makeroom cannot tell ({@code unmodelled}).
 * {@code notes} explain the constraints that shaped the answer.
 */
public record NodeConstraints(String unmodelled, String impossible, Map<String, String> forced, List<CountNeed> needs,
                       List<String> notes) {

    public static final NodeConstraints NONE = new NodeConstraints(null, null, Map.of(), List.of(), List.of());

    public static NodeConstraints unmodelled(String what) {
        return new NodeConstraints(what, null, Map.of(), List.of(), List.of());
    }

    public static NodeConstraints impossible(String why) {
        return new NodeConstraints(null, why, Map.of(), List.of(), List.of());
    }
}
