package dev.makeroom.support.property;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

import java.lang.reflect.Method;

/**
 * Runs a {@link Property} inside JUnit: JUnit calls the method once, this extension takes that call
 * over and makes the tries instead ({@link PropertyRun}). The parameters JUnit asks for are placeholders
 * it never sees used.
 */
public final class PropertyExtension implements ParameterResolver, InvocationInterceptor {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.isAnnotated(ForAll.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        return null;
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                    ExtensionContext context) {
        invocation.skip();
        Method method = call.getExecutable();
        int tries = method.getAnnotation(Property.class).tries();
        new PropertyRun(context.getRequiredTestInstance(), method, tries).run(Seeds.base(), Seeds.oneCase());
    }
}
