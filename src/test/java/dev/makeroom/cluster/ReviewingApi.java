package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * A mock API server that reviews as a cluster would: the tokens {@code alice-token} and
 * {@code bob-token} authenticate as alice and bob, any other does not; alice may use the debug API,
 * bob may not. With {@code down}, both reviews answer 500.
 */
public final class ReviewingApi {

    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private ReviewingApi() {
    }

    /** As {@link #serve(boolean)}, publishing {@code frontProxyCa} (PEM) as the API server's front-proxy CA, for the name front-proxy-client. */
    public static KubernetesMockServer serveWithFrontProxy(String frontProxyCa) {
        KubernetesMockServer server = serve(false);
        server.expect().get().withPath("/api/v1/namespaces/" + FrontProxy.CONFIG_MAP_NAMESPACE + "/configmaps/"
                + FrontProxy.CONFIG_MAP_NAME).andReturn(200, new ConfigMapBuilder().withNewMetadata()
                .withNamespace(FrontProxy.CONFIG_MAP_NAMESPACE).withName(FrontProxy.CONFIG_MAP_NAME).endMetadata()
                .addToData("requestheader-client-ca-file", frontProxyCa)
                .addToData("requestheader-allowed-names", "[\"front-proxy-client\"]")
                .addToData("requestheader-username-headers", "[\"X-Remote-User\"]")
                .addToData("requestheader-group-headers", "[\"X-Remote-Group\"]")
                .addToData("requestheader-extra-headers-prefix", "[\"X-Remote-Extra-\"]").build()).always();
        return server;
    }

    public static KubernetesMockServer serve(boolean down) {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        if (down) {
            server.expect().post().withPath(TOKEN_REVIEWS).andReturn(500, "{}").always();
            return server;
        }
        server.expect().post().withPath(TOKEN_REVIEWS).andReply(201, request -> {
            String body = request.getBody().readUtf8();
            String user = body.contains("\"alice-token\"") ? "alice" : body.contains("\"bob-token\"") ? "bob" : null;
            return new TokenReviewBuilder().withNewStatus().withAuthenticated(user != null)
                    .withNewUser().withUsername(user).withGroups("system:authenticated").endUser().endStatus().build();
        }).always();
        server.expect().post().withPath(ACCESS_REVIEWS).andReply(201, request -> {
            String body = request.getBody().readUtf8();
            boolean alice = body.contains("\"alice\"") && body.contains("\"/debug/");
            return new SubjectAccessReviewBuilder().withNewStatus().withAllowed(alice).endStatus().build();
        }).always();
        return server;
    }
}
