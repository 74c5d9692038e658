package dev.makeroom.mapping;

import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PreferredNodeTerm;
import dev.makeroom.core.model.PreferredPodTerm;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static dev.makeroom.mapping.PodMapper.list;

/**
 * A pod's placement constraints beyond resources, as the kube-scheduler's InterPodAffinity,
 * PodTopologySpread and NodeAffinity filters read them; what makeroom cannot evaluate is named in
 * {@link SchedulingConstraints#unmodelled()}.
 */
final class ConstraintsMapper {

    private ConstraintsMapper() {
    }

    static SchedulingConstraints of(PodSpec spec, Map<String, String> podLabels) {
        Set<String> unmodelled = new LinkedHashSet<>();
        List<PodAffinityTerm> affinity = spec.getAffinity() == null || spec.getAffinity().getPodAffinity() == null
                ? List.of() : terms(spec.getAffinity().getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
        List<LabelSelector> nodeTerms = new ArrayList<>();
        boolean nodeAffinityReadable = nodeTerms(spec, nodeTerms);
        List<SpreadConstraint> spread = new ArrayList<>();
        List<SpreadConstraint> softSpread = new ArrayList<>(); // ScheduleAnyway: only scores, never filters
        for (TopologySpreadConstraint c : list(spec.getTopologySpreadConstraints())) {
            if (c == null || !("DoNotSchedule".equals(c.getWhenUnsatisfiable())
                    || "ScheduleAnyway".equals(c.getWhenUnsatisfiable()))) {
                continue;
            }
            boolean honorNodeAffinity = !"Ignore".equals(c.getNodeAffinityPolicy());
            boolean honorTaints = "Honor".equals(c.getNodeTaintsPolicy());
            LabelSelector selector = c.getLabelSelector() == null ? LabelSelector.NOTHING
                    : SelectorMapper.toCore(c.getLabelSelector());
            Map<String, String> withKeys = new HashMap<>(selector.matchLabels());
            for (String key : list(c.getMatchLabelKeys())) {
                if (key != null && podLabels.containsKey(key) && c.getLabelSelector() != null) {
                    withKeys.put(key, podLabels.get(key));
                }
            }
            ("DoNotSchedule".equals(c.getWhenUnsatisfiable()) ? spread : softSpread).add(new SpreadConstraint(
                    c.getMaxSkew() == null ? 1 : c.getMaxSkew(), c.getTopologyKey(),
                    new LabelSelector(withKeys, selector.requirements()),
                    c.getMinDomains() == null ? 1 : c.getMinDomains(), honorNodeAffinity, honorTaints));
        }
        for (PodAffinityTerm term : affinity) {
            if (term.namespacesByLabels()) {
                unmodelled.add("pod affinity choosing namespaces by their labels");
            }
        }
        for (Volume v : list(spec.getVolumes())) {
            String kind = v == null ? null : restrictingVolume(v);
            if (kind != null) {
                unmodelled.add("a " + kind + " volume (volume limits, zones and binding are not modelled)");
            }
        }
        List<PreferredNodeTerm> preferred = preferred(spec);
        List<PreferredPodTerm> preferredPods = preferredPods(spec);
        if (affinity.isEmpty() && spread.isEmpty() && unmodelled.isEmpty() && nodeTerms.isEmpty() && nodeAffinityReadable
                && preferred.isEmpty() && preferredPods.isEmpty() && softSpread.isEmpty()) {
            return SchedulingConstraints.NONE;
        }
        return new SchedulingConstraints(affinity, spread, nodeTerms, List.copyOf(unmodelled), nodeAffinityReadable,
                preferred, preferredPods, softSpread);
    }

    /** Preferred pod affinity and anti-affinity as weighted terms, as the scheduler's InterPodAffinity scores them. */
    private static List<PreferredPodTerm> preferredPods(PodSpec spec) {
        List<PreferredPodTerm> out = new ArrayList<>();
        if (spec.getAffinity() == null) {
            return out;
        }
        if (spec.getAffinity().getPodAffinity() != null) {
            weighted(spec.getAffinity().getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), false, out);
        }
        if (spec.getAffinity().getPodAntiAffinity() != null) {
            weighted(spec.getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), true, out);
        }
        return out;
    }

    private static void weighted(List<io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm> terms, boolean anti,
                                 List<PreferredPodTerm> out) {
        for (var t : list(terms)) {
            if (t != null && t.getWeight() != null && t.getPodAffinityTerm() != null
                    && t.getPodAffinityTerm().getLabelSelector() != null) {
                out.add(new PreferredPodTerm(t.getWeight(), term(t.getPodAffinityTerm()), anti));
            }
        }
    }

    /** Preferred node affinity as weighted node terms; none at all when a term uses fields or an unknown operator. */
    private static List<PreferredNodeTerm> preferred(PodSpec spec) {
        var nodeAffinity = spec.getAffinity() == null ? null : spec.getAffinity().getNodeAffinity();
        List<PreferredNodeTerm> out = new ArrayList<>();
        for (var term : nodeAffinity == null ? List.<io.fabric8.kubernetes.api.model.PreferredSchedulingTerm>of()
                : list(nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution())) {
            if (term == null || term.getPreference() == null || term.getWeight() == null) {
                continue;
            }
            if (!list(term.getPreference().getMatchFields()).isEmpty()) {
                return List.of();
            }
            List<LabelSelector.Requirement> requirements = new ArrayList<>();
            for (NodeSelectorRequirement r : list(term.getPreference().getMatchExpressions())) {
                LabelSelector.Operator op = r == null ? null : SelectorMapper.nodeOperator(r.getOperator());
                if (op == null) {
                    return List.of();
                }
                requirements.add(new LabelSelector.Requirement(r.getKey(), op,
                        list(r.getValues()).stream().filter(Objects::nonNull).toList()));
            }
            out.add(new PreferredNodeTerm(term.getWeight(), new LabelSelector(Map.of(), requirements)));
        }
        return out;
    }

    /** Required pod (anti-)affinity terms; a term without a selector selects no pod and is left out. */
    static List<PodAffinityTerm> terms(List<io.fabric8.kubernetes.api.model.PodAffinityTerm> required) {
        List<PodAffinityTerm> terms = new ArrayList<>();
        for (var t : list(required)) {
            if (t != null && t.getLabelSelector() != null) {
                terms.add(term(t));
            }
        }
        return terms;
    }

    private static PodAffinityTerm term(io.fabric8.kubernetes.api.model.PodAffinityTerm t) {
        var nsSelector = t.getNamespaceSelector();
        boolean selectorEmpty = nsSelector != null && (nsSelector.getMatchLabels() == null
                || nsSelector.getMatchLabels().isEmpty())
                && (nsSelector.getMatchExpressions() == null || nsSelector.getMatchExpressions().isEmpty());
        boolean byLabels = nsSelector != null && !selectorEmpty;
        return new PodAffinityTerm(SelectorMapper.toCore(t.getLabelSelector()),
                Set.copyOf(list(t.getNamespaces()).stream().filter(Objects::nonNull).toList()), selectorEmpty,
                t.getTopologyKey(), byLabels);
    }

    /**
     * The pod's node selector and required node affinity as ORed selectors on node labels (the node
     * selector ANDed into each), as the scheduler's NodeAffinity reads them: Gt and Lt compare integers,
     * {@code matchFields} on {@code metadata.name} read the node's name ({@link LabelSelector#NODE_NAME_FIELD}),
     * and a term that is empty or names another field or operator matches no node. Always readable now;
     * the answer stays for callers that ask.
     */
    private static boolean nodeTerms(PodSpec spec, List<LabelSelector> out) {
        Map<String, String> nodeSelector = StringMaps.clean(spec.getNodeSelector());
        var required = spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null ? null
                : spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        List<NodeSelectorTerm> terms = required == null ? List.of() : list(required.getNodeSelectorTerms());
        if (terms.isEmpty()) {
            if (!nodeSelector.isEmpty()) {
                out.add(LabelSelector.matching(nodeSelector));
            }
            return true;
        }
        for (NodeSelectorTerm term : terms) {
            if (term == null) {
                continue;
            }
            List<LabelSelector.Requirement> requirements = new ArrayList<>();
            boolean matchesNothing = list(term.getMatchExpressions()).isEmpty() && list(term.getMatchFields()).isEmpty();
            for (NodeSelectorRequirement r : list(term.getMatchExpressions())) {
                LabelSelector.Operator op = r == null ? null : SelectorMapper.nodeOperator(r.getOperator());
                if (op == null) {
                    matchesNothing = true;
                    continue;
                }
                requirements.add(new LabelSelector.Requirement(r.getKey(), op,
                        list(r.getValues()).stream().filter(Objects::nonNull).toList()));
            }
            for (NodeSelectorRequirement f : list(term.getMatchFields())) {
                boolean setOperator = f != null && ("In".equals(f.getOperator()) || "NotIn".equals(f.getOperator()));
                if (f == null || !"metadata.name".equals(f.getKey()) || !setOperator) {
                    matchesNothing = true; // the scheduler supports metadata.name with In and NotIn only
                    continue;
                }
                requirements.add(new LabelSelector.Requirement(LabelSelector.NODE_NAME_FIELD,
                        SelectorMapper.labelOperator(f.getOperator()),
                        list(f.getValues()).stream().filter(Objects::nonNull).toList()));
            }
            out.add(matchesNothing ? LabelSelector.NOTHING : new LabelSelector(nodeSelector, requirements));
        }
        if (out.isEmpty()) {
            out.add(LabelSelector.NOTHING); // only null terms: the scheduler matches no node
        }
        return true;
    }

    /** Volumes whose scheduler filters depend on the node and on other pods' volumes there. */
    private static String restrictingVolume(Volume v) {
        if (v.getPersistentVolumeClaim() != null) {
            return "persistentVolumeClaim";
        }
        if (v.getEphemeral() != null) {
            return "generic ephemeral";
        }
        if (v.getCsi() != null) {
            return "CSI";
        }
        if (v.getAwsElasticBlockStore() != null || v.getGcePersistentDisk() != null || v.getAzureDisk() != null
                || v.getCinder() != null) {
            return "cloud disk";
        }
        return null;
    }
}
