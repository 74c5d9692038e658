package dev.makeroom.core.devices;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelOptionalLibrary;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;

import java.math.BigDecimal;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DRA's CEL environment on CEL-Java: the {@code device} variable as the scheduler gives it
 * ({@code device.driver}, {@code device.attributes[domain][id]} typed as the slice types them, versions
 * as semver values, {@code device.capacity[domain][id]} as quantities, {@code device.allowMultipleAllocations};
 * an unknown domain is an empty map, an unknown id an evaluation error), the standard library and
 * macros, CEL-Java's string, set, list, optional, bindings ({@code cel.bind}) and two-variable
 * comprehension extensions, and the Kubernetes functions a selector uses most registered once, typed
 * as Kubernetes types them: {@code quantity()}, {@code isQuantity()} and the quantity methods
 * ({@code compareTo}, {@code isGreaterThan}, {@code isLessThan}, {@code add}, {@code sub},
 * {@code sign}, {@code isInteger}, {@code asInteger}, {@code asApproximateFloat}), {@code semver()},
 * {@code isSemver()} and the version methods ({@code major}, {@code minor}, {@code patch},
 * {@code compareTo}, {@code isGreaterThan}, {@code isLessThan}). An expression using anything else
 * (the IP, CIDR, URL or format libraries, Kubernetes' own list functions) does not compile here: it
 * is reported as not modelled, never guessed. Each expression is compiled once; asked by pool and
 * position, each device of a pool version is evaluated once per expression while that version is kept.
 */
public final class DeviceCel implements DeviceSelectors {

    private static final CelType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    private static final CelType SEMVER = OpaqueType.create("kubernetes.Semver");
    private static final Cel CEL = environment();

    private final Map<String, Compiled> programs = new ConcurrentHashMap<>();

    private record Compiled(CelRuntime.Program program, String error) {
    }

    /** One pool version's answers to one expression, by device position: null (not asked yet), a Boolean, or an error. */
    private record PoolExpression(DevicePool pool, String expression) {
        @Override
        public boolean equals(Object other) {
            return other instanceof PoolExpression e && e.pool == pool && e.expression.equals(expression);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(pool) * 31 + expression.hashCode();
        }
    }

    private final Map<PoolExpression, Object[]> byPool = new ConcurrentHashMap<>();

    @Override
    public boolean matches(String expression, DevicePool pool, int index) throws SelectorError {
        Object[] answers = byPool.computeIfAbsent(new PoolExpression(pool, expression), k -> new Object[pool.devices().size()]);
        Object known = answers[index];
        if (known == null) {
            try {
                known = matches(expression, pool.driver(), pool.devices().get(index));
            } catch (SelectorError e) {
                known = e;
            }
            answers[index] = known; // racing threads compute the same answer
            if (byPool.size() > 50_000) {
                byPool.clear(); // old pool versions go
            }
        }
        if (known instanceof SelectorError error) {
            throw error;
        }
        return (Boolean) known;
    }

    @Override
    public boolean matches(String expression, String driver, Device device) throws SelectorError {
        Compiled compiled = programs.computeIfAbsent(expression, DeviceCel::compile);
        if (compiled.error() != null) {
            throw new SelectorError(compiled.error(), true);
        }
        Object result;
        try {
            result = compiled.program().eval(Map.of("device", deviceValue(driver, device)));
        } catch (CelEvaluationException e) {
            throw new SelectorError("CEL runtime error: " + e.getMessage(), false);
        }
        if (!(result instanceof Boolean passes)) {
            throw new SelectorError("CEL selector " + expression + " gave " + result + ", not a bool", false);
        }
        return passes;
    }

    private static Compiled compile(String expression) {
        try {
            CelAbstractSyntaxTree ast = CEL.compile(expression).getAst();
            if (!ast.getResultType().equals(SimpleType.BOOL) && !ast.getResultType().equals(SimpleType.DYN)) {
                return new Compiled(null, "CEL selector " + expression + " must return a bool, not " + ast.getResultType());
            }
            return new Compiled(CEL.createProgram(ast), null);
        } catch (CelValidationException e) {
            return new Compiled(null, "CEL selector " + expression + " uses what makeroom does not model: "
                    + e.getMessage().lines().findFirst().orElse(""));
        } catch (CelEvaluationException e) {
            return new Compiled(null, "CEL selector " + expression + ": " + e.getMessage());
        }
    }

    /** The {@code device} variable's value: driver, attributes and capacities by domain and id. */
    private static Map<String, Object> deviceValue(String driver, Device device) {
        Map<String, Map<String, Object>> attributes = new HashMap<>();
        device.attributes().forEach((name, value) -> byDomain(attributes, driver, name).put(id(name), value.celValue()));
        Map<String, Map<String, Object>> capacity = new HashMap<>();
        device.capacity().forEach((name, value) -> byDomain(capacity, driver, name).put(id(name), value.value()));
        return Map.of("driver", driver, "attributes", new Domains(attributes), "capacity", new Domains(capacity),
                "allowMultipleAllocations", device.allowMultipleAllocations());
    }

    private static Map<String, Object> byDomain(Map<String, Map<String, Object>> domains, String driver, String name) {
        int slash = name.indexOf('/');
        return domains.computeIfAbsent(slash < 0 ? driver : name.substring(0, slash), d -> new HashMap<>());
    }

    private static String id(String name) {
        int slash = name.indexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }

    /** Domains of attributes or capacities: an unknown domain is an empty map, as Kubernetes gives it. */
    private static final class Domains extends AbstractMap<String, Map<String, Object>> {
        private final Map<String, Map<String, Object>> known;

        Domains(Map<String, Map<String, Object>> known) {
            this.known = known;
        }

        @Override
        public boolean containsKey(Object key) {
            return key instanceof String;
        }

        @Override
        public Map<String, Object> get(Object key) {
            return known.getOrDefault(key, Map.of());
        }

        @Override
        public Set<Entry<String, Map<String, Object>>> entrySet() {
            return known.entrySet();
        }
    }

    private static Cel environment() {
        CelOptions options = CelOptions.current().build();
        return CelFactory.standardCelBuilder()
                .setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addCompilerLibraries(CelExtensions.strings(), CelExtensions.sets(options), CelExtensions.lists(),
                        CelOptionalLibrary.INSTANCE, CelExtensions.bindings(), CelExtensions.comprehensions())
                .addRuntimeLibraries(CelExtensions.strings(), CelExtensions.sets(options), CelExtensions.lists(),
                        CelOptionalLibrary.INSTANCE, CelExtensions.comprehensions())
                .addVar("device", MapType.create(SimpleType.STRING, SimpleType.DYN))
                .addFunctionDeclarations(declarations())
                .addFunctionBindings(bindings())
                .build();
    }

    private static List<CelFunctionDecl> declarations() {
        return List.of(
                fn("quantity", CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
                fn("isQuantity", CelOverloadDecl.newGlobalOverload("is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
                fn("sign", CelOverloadDecl.newMemberOverload("quantity_sign", SimpleType.INT, QUANTITY)),
                fn("isInteger", CelOverloadDecl.newMemberOverload("quantity_is_integer", SimpleType.BOOL, QUANTITY)),
                fn("asInteger", CelOverloadDecl.newMemberOverload("quantity_as_integer", SimpleType.INT, QUANTITY)),
                fn("asApproximateFloat", CelOverloadDecl.newMemberOverload("quantity_as_float", SimpleType.DOUBLE, QUANTITY)),
                fn("add", CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
                fn("sub", CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)),
                fn("semver", CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, SimpleType.STRING),
                        CelOverloadDecl.newGlobalOverload("string_bool_to_semver", SEMVER, SimpleType.STRING, SimpleType.BOOL)),
                fn("isSemver", CelOverloadDecl.newGlobalOverload("is_semver_string", SimpleType.BOOL, SimpleType.STRING),
                        CelOverloadDecl.newGlobalOverload("is_semver_string_bool", SimpleType.BOOL, SimpleType.STRING, SimpleType.BOOL)),
                fn("major", CelOverloadDecl.newMemberOverload("semver_major", SimpleType.INT, SEMVER)),
                fn("minor", CelOverloadDecl.newMemberOverload("semver_minor", SimpleType.INT, SEMVER)),
                fn("patch", CelOverloadDecl.newMemberOverload("semver_patch", SimpleType.INT, SEMVER)),
                fn("compareTo", CelOverloadDecl.newMemberOverload("quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("semver_compare_to", SimpleType.INT, SEMVER, SEMVER)),
                fn("isGreaterThan", CelOverloadDecl.newMemberOverload("quantity_greater", SimpleType.BOOL, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("semver_greater", SimpleType.BOOL, SEMVER, SEMVER)),
                fn("isLessThan", CelOverloadDecl.newMemberOverload("quantity_less", SimpleType.BOOL, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("semver_less", SimpleType.BOOL, SEMVER, SEMVER)));
    }

    private static CelFunctionDecl fn(String name, CelOverloadDecl... overloads) {
        return CelFunctionDecl.newFunctionDeclaration(name, overloads);
    }

    private static List<CelFunctionBinding> bindings() {
        Class<DeviceQuantity> q = DeviceQuantity.class;
        Class<DeviceVersion> v = DeviceVersion.class;
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, DeviceCel::quantity),
                CelFunctionBinding.from("is_quantity_string", String.class, DeviceCel::isQuantity),
                CelFunctionBinding.from("quantity_sign", q, a -> (long) a.signum()),
                CelFunctionBinding.from("quantity_is_integer", q, a -> isInteger(a)),
                CelFunctionBinding.from("quantity_as_integer", q, DeviceCel::asInteger),
                CelFunctionBinding.from("quantity_as_float", q, a -> a.value().doubleValue()),
                CelFunctionBinding.from("quantity_add", q, q, DeviceQuantity::plus),
                CelFunctionBinding.from("quantity_add_int", q, Long.class, (a, b) -> a.plus(new DeviceQuantity(BigDecimal.valueOf(b)))),
                CelFunctionBinding.from("quantity_sub", q, q, DeviceQuantity::minus),
                CelFunctionBinding.from("quantity_sub_int", q, Long.class, (a, b) -> a.minus(new DeviceQuantity(BigDecimal.valueOf(b)))),
                CelFunctionBinding.from("string_to_semver", String.class, s -> semver(s, false)),
                CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, DeviceCel::semver),
                CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)),
                CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, DeviceCel::isSemver),
                CelFunctionBinding.from("semver_major", v, a -> a.major()),
                CelFunctionBinding.from("semver_minor", v, a -> a.minor()),
                CelFunctionBinding.from("semver_patch", v, a -> a.patch()),
                CelFunctionBinding.from("quantity_compare_to", q, q, (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("semver_compare_to", v, v, (a, b) -> (long) Integer.signum(a.compareTo(b))),
                CelFunctionBinding.from("quantity_greater", q, q, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("semver_greater", v, v, (a, b) -> a.compareTo(b) > 0),
                CelFunctionBinding.from("quantity_less", q, q, (a, b) -> a.compareTo(b) < 0),
                CelFunctionBinding.from("semver_less", v, v, (a, b) -> a.compareTo(b) < 0));
    }

    private static DeviceQuantity quantity(String text) throws CelEvaluationException {
        try {
            return DeviceQuantity.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException("quantities must match the regular expression for Kubernetes quantities: " + text);
        }
    }

    private static boolean isQuantity(String text) {
        try {
            DeviceQuantity.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isInteger(DeviceQuantity a) {
        BigDecimal value = a.value();
        return value.scale() <= 0 && value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0
                && value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0;
    }

    private static long asInteger(DeviceQuantity a) throws CelEvaluationException {
        if (!isInteger(a)) {
            throw new CelEvaluationException("cannot convert value to integer: " + a);
        }
        return a.value().longValueExact();
    }

    /** {@code normalize}: a leading "v" and missing minor or patch are accepted, as Kubernetes' semver(s, true) does. */
    private static DeviceVersion semver(String text, Boolean normalize) throws CelEvaluationException {
        try {
            return DeviceVersion.parse(Boolean.TRUE.equals(normalize) ? normalized(text) : text);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException("could not parse " + text + " as a semantic version");
        }
    }

    private static boolean isSemver(String text, Boolean normalize) {
        return DeviceVersion.valid(Boolean.TRUE.equals(normalize) ? normalized(text) : text);
    }

    private static String normalized(String text) {
        String s = text.startsWith("v") ? text.substring(1) : text;
        int end = s.length();
        for (char c : new char[] {'-', '+'}) {
            int at = s.indexOf(c);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        String core = s.substring(0, end);
        String rest = s.substring(end);
        long dots = core.chars().filter(ch -> ch == '.').count();
        return core + ".0".repeat((int) Math.max(0, 2 - dots)) + rest;
    }
}
