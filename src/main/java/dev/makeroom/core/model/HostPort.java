package dev.makeroom.core.model;

/** A container port bound on the host. An empty or 0.0.0.0 host IP means every address. */
public record HostPort(String hostIp, String protocol, int port) {

    public HostPort {
        hostIp = hostIp == null || hostIp.isEmpty() ? "0.0.0.0" : hostIp;
        protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
    }

    /** Same rule as the kube-scheduler's NodePorts filter. */
    public boolean conflictsWith(HostPort other) {
        if (port != other.port || !protocol.equals(other.protocol)) {
            return false;
        }
        return hostIp.equals(other.hostIp) || isWildcard() || other.isWildcard();
    }

    private boolean isWildcard() {
        return "0.0.0.0".equals(hostIp);
    }

    @Override
    public String toString() {
        return protocol + "/" + (isWildcard() ? "" : hostIp + ":") + port;
    }
}
