package dev.makeroom.config;

import dev.makeroom.rescheduler.InvalidReschedulerConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A rescheduler policies document that cannot be used stops makeroom naming the file and key, not a stack trace. */
class ReschedulerConfigFailureAnalyzer extends AbstractFailureAnalyzer<InvalidReschedulerConfigException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidReschedulerConfigException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Fix the document (README, \"Rescheduler\"; examples/rescheduler.yaml shows every key), or point "
                        + "makeroom.rescheduler.file at another one.", cause);
    }
}
