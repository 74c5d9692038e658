package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * A mock API server that reviews as a cluster would: the tokens {@code alice-token} and
 * {@code bob-token} authenticate as alice and bob, any other does not; alice may use the debug API,
 * bob may not. With {@code down}, both reviews answer 500.
 */
final class ReviewingApi {

    static final String TOKEN_REVIEWS = "/apis/authentication.k8s.io/v1/tokenreviews";
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

    private ReviewingApi() {
    }

    static KubernetesMockServer serve(boolean down) {
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
