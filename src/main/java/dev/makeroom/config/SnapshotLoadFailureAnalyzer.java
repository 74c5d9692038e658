package dev.makeroom.config;

import dev.makeroom.cluster.SnapshotLoadException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A snapshot file that cannot be read stops makeroom with what is wrong and where, not a stack trace. */
class SnapshotLoadFailureAnalyzer extends AbstractFailureAnalyzer<SnapshotLoadException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SnapshotLoadException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Fix the file, or point makeroom.cluster.snapshot at another one (a file of Kubernetes objects "
                        + "as `kubectl get nodes,pods,pdb,priorityclasses,namespaces -A -o yaml` writes it).", cause);
    }
}
