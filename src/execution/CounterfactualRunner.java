// codebias counterfactual runner for Java: compiles a generated answer in memory, calls its
// decision method on the personas that counterfactual_driver.py planned (plan_job) and reports
// every outcome in that driver's format.
//
// Runs in the codebias sandbox (no network, no file bytes written) as a long-lived server, started
// as `java CounterfactualRunner.java` (the source launcher: nothing is built ahead), so the JVM and
// the compiler warm up once for many responses. Each line of stdin is one job:
//   {"code", "unit", "function", "params", "object_mode", "calls": [{"attribute", "base", "group",
//    "values"}], "standing": {field: [attribute keys]}, "read": [fields], "call_seconds", "max_timeouts"}
// where "unit" names the compilation unit (its public class). A persona is an instance of the
// answer's own parameter class (a record through its canonical constructor; a class through its
// no-argument constructor, else its widest one, then its fields set by name), a Map of the values,
// or, when the method takes several parameters, one value per parameter, each converted to the
// declared type. The answer's classes are defined in a protection domain granted nothing, so the
// security manager refuses their file writes, network and processes (the outcome `refused`) and
// every other permission; each call runs on a thread of its own, stopped after call_seconds.
// Writes CODEBIAS-CASE lines and a CODEBIAS-RESULT line as counterfactual_driver.py does, then
//   CODEBIAS-JOB {"wall_seconds", "cpu_seconds", "clean"}
// Each answer's classes live in a class loader of their own, so no answer sees another's statics;
// when a thread the answer ran is still alive after its job ("clean": false) the JVM exits, and the
// caller starts another. The caller kills a JVM whose job passes its wall time.
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FilePermission;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.SocketPermission;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.Permission;
import java.security.Permissions;
import java.security.Policy;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;

@SuppressWarnings("removal")
public class CounterfactualRunner {
  static final String CASE_MARK = "CODEBIAS-CASE ";
  static final String RESULT_MARK = "CODEBIAS-RESULT ";
  static final String JOB_MARK = "CODEBIAS-JOB ";
  static final List<String> REFUSED = Collections.synchronizedList(new ArrayList<>());
  static PrintStream out;

  /** Why the runner, not the generated code, could not make a call: the response fails. */
  static final class HarnessError extends Exception {
    final String type;

    HarnessError(String type, String message) {
      super(message);
      this.type = type;
    }
  }

  /** System.exit in generated code: refused, and reported as the crash SystemExit. */
  static final class ExitRefused extends SecurityException {
    ExitRefused(int status) {
      super("System.exit(" + status + ") in the codebias counterfactual sandbox");
    }
  }

  /** Where the generated classes are defined: a domain granted nothing, so that every permission
   * check with generated code on the stack fails (the JDK's own privileged actions, such as
   * loading its network library, still pass), while the policy grants this runner everything. */
  static final ProtectionDomain GENERATED =
      new ProtectionDomain(new CodeSource(null, (Certificate[]) null), new Permissions());

  /** Turns a denied permission into the sandbox's outcome: file writes, network and processes are
   * refused (recorded); System.exit is the crash SystemExit; anything else a SecurityException. */
  static final class Guard extends SecurityManager {
    @Override
    public void checkPermission(Permission permission) {
      try {
        super.checkPermission(permission);
      } catch (SecurityException denied) {
        String what = null;
        if (permission instanceof FilePermission) {
          String actions = permission.getActions();
          if (actions.contains("write") || actions.contains("delete")) what = "file write";
          else if (actions.contains("execute")) what = "process";
        } else if (permission instanceof SocketPermission) {
          what = "network";
        } else if (permission instanceof RuntimePermission && permission.getName().startsWith("exitVM")) {
          String status = permission.getName().substring("exitVM".length()).replace(".", "");
          boolean numbered = !status.isEmpty() && status.chars().allMatch(Character::isDigit);
          throw new ExitRefused(numbered ? Integer.parseInt(status) : 0);
        }
        if (what == null) throw denied;
        REFUSED.add(what);
        throw new SecurityException(what + " is refused in the codebias counterfactual sandbox");
      }
    }

    @Override
    public void checkPermission(Permission permission, Object context) {
      checkPermission(permission);
    }
  }

  public static void main(String[] args) throws Exception {
    out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    // Jobs come on the real stdin; the answers' System.in is empty, their output goes nowhere.
    BufferedReader jobs =
        new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
    System.setIn(InputStream.nullInputStream());
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    System.setOut(quiet);
    System.setErr(quiet);
    Policy.setPolicy(new Policy() {
      @Override
      public boolean implies(ProtectionDomain domain, Permission permission) {
        return domain != GENERATED;
      }
    });
    System.setSecurityManager(new Guard());
    com.sun.management.OperatingSystemMXBean system =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (String line; (line = jobs.readLine()) != null;) {
      if (line.isBlank()) continue;
      long started = System.nanoTime();
      long cpuBefore = system.getProcessCpuTime();
      Set<Thread> threadsBefore = Thread.getAllStackTraces().keySet();
      REFUSED.clear();
      @SuppressWarnings("unchecked")
      Map<String, Object> job = (Map<String, Object>) new Json(line).read();
      runJob(job);
      // A thread the answer left running (a call that would not stop, or one it started) could
      // reach the next answer: then this JVM serves no more.
      boolean clean = true;
      for (Thread thread : Thread.getAllStackTraces().keySet())
        if (thread.isAlive() && !threadsBefore.contains(thread)) clean = false;
      emit(JOB_MARK, map("wall_seconds", (System.nanoTime() - started) / 1e9, "cpu_seconds",
          (system.getProcessCpuTime() - cpuBefore) / 1e9, "clean", clean));
      if (!clean) Runtime.getRuntime().halt(0);
    }
    Runtime.getRuntime().halt(0);
  }

  /** One answer: compiled, loaded in a class loader of its own, called on every planned persona. */
  static void runJob(Map<String, Object> job) throws Exception {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("stage", "compile");
    Map<String, byte[]> classes = compile((String) job.get("code"), (String) job.get("unit"), result);
    if (classes == null) {
      emit(RESULT_MARK, result);
      return;
    }
    result.put("stage", "select");
    ClassLoader loader = new MemoryLoader(classes);
    String function = (String) job.get("function");
    List<String> params = strings(job.get("params"));
    Method method = findMethod(loader, classes.keySet(), function, params.size());
    if (method == null) {
      result.put("error_type", "no_function");
      result.put("error", "the code defines no method " + function);
      emit(RESULT_MARK, result);
      return;
    }
    result.put("function", function);
    result.put("stage", "run");
    method.setAccessible(true);  // here: the call threads may not
    boolean objectMode = Boolean.TRUE.equals(job.get("object_mode"));
    double callSeconds = ((Number) job.get("call_seconds")).doubleValue();
    int maxTimeouts = ((Number) job.get("max_timeouts")).intValue();

    Map<String, Integer> timeouts = new HashMap<>();
    int totalTimeouts = 0;
    try {
      for (Object item : (List<?>) job.get("calls")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> planned = (Map<String, Object>) item;
        @SuppressWarnings("unchecked")
        Map<String, Object> values = (Map<String, Object>) planned.get("values");
        String key = planned.get("attribute") + "\u0000" + planned.get("group");
        Map<String, Object> outcome;
        // As counterfactual_driver.py: a group timing out max_timeouts times is not called again,
        // and past four times that many timeouts in all nothing more is called.
        if (timeouts.getOrDefault(key, 0) >= maxTimeouts || totalTimeouts >= 4 * maxTimeouts) {
          outcome = map("kind", "timeout", "skipped", true);
        } else {
          Object receiver = receiverFor(method, objectMode, values);
          Object[] arguments = argumentsFor(method, params, objectMode, values);
          outcome = call(method, receiver, arguments, callSeconds);
          if ("timeout".equals(outcome.get("kind"))) {
            timeouts.merge(key, 1, Integer::sum);
            ++totalTimeouts;
          }
        }
        emit(CASE_MARK, map("attribute", planned.get("attribute"), "base", planned.get("base"), "group",
            planned.get("group"), "outcome", outcome));
      }
    } catch (HarnessError error) {
      result.put("error_type", error.type);
      result.put("error", error.getMessage());
      emit(RESULT_MARK, result);
      return;
    }
    // Java's fields cannot be watched as they are read: the method reads what the analyzer read
    // of it (job "read"), and every parameter.
    @SuppressWarnings("unchecked")
    Map<String, Object> standing = (Map<String, Object>) job.get("standing");
    Set<String> read = new LinkedHashSet<>();
    for (String name : strings(job.get("read"))) read.addAll(strings(standing.get(name)));
    result.put("read", new ArrayList<>(read));
    emit(RESULT_MARK, result);
  }

  // ---- compiling and loading the answer ----

  static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();
  /** The JDK's classes as javac reads them, opened once for every answer. */
  static JavaFileManager systemFiles;

  static Map<String, byte[]> compile(String code, String unit, Map<String, Object> result) {
    if (JAVAC == null) {
      result.put("error_type", "no_compiler");
      result.put("error", "this Java runtime has no compiler (install a JDK)");
      return null;
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Map<String, ByteArrayOutputStream> written = new LinkedHashMap<>();
    if (systemFiles == null) systemFiles = JAVAC.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    JavaFileManager files = new ForwardingJavaFileManager<JavaFileManager>(systemFiles) {
      @Override
      public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                 FileObject sibling) {
        return new SimpleJavaFileObject(URI.create("memory:///" + className.replace('.', '/') + kind.extension), kind) {
          @Override
          public OutputStream openOutputStream() {
            return written.computeIfAbsent(className, name -> new ByteArrayOutputStream());
          }
        };
      }
    };
    URI file = URI.create("string:///" + unit + ".java");
    JavaFileObject source = new SimpleJavaFileObject(file, JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return code;
      }
    };
    // -parameters keeps parameter names, by which keyword-style calls and constructors are filled.
    List<String> options = List.of("-parameters", "-proc:none", "-nowarn", "-Xlint:none", "-implicit:none");
    boolean compiled = JAVAC.getTask(null, files, diagnostics, options, null, List.of(source)).call();
    if (!compiled) {
      result.put("error_type", "CompileError");
      String first = "the code does not compile";
      for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
        if (diagnostic.getKind() != Diagnostic.Kind.ERROR) continue;
        first = "line " + diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT);
        break;
      }
      result.put("error", clip(first));
      return null;
    }
    Map<String, byte[]> classes = new LinkedHashMap<>();
    written.forEach((name, bytes) -> classes.put(name, bytes.toByteArray()));
    return classes;
  }

  static final class MemoryLoader extends ClassLoader {
    private final Map<String, byte[]> classes;

    MemoryLoader(Map<String, byte[]> classes) {
      super(CounterfactualRunner.class.getClassLoader());
      this.classes = classes;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] bytes = classes.get(name);
      if (bytes == null) throw new ClassNotFoundException(name);
      return defineClass(name, bytes, 0, bytes.length, GENERATED);
    }
  }

  /** The method named `function`: of its overloads the one with `arity` parameters, else the first. */
  static Method findMethod(ClassLoader loader, Set<String> names, String function, int arity) throws Exception {
    Method first = null;
    for (String name : names) {
      for (Method method : Class.forName(name, false, loader).getDeclaredMethods()) {
        if (!method.getName().equals(function) || method.isSynthetic()) continue;
        if (method.getParameterCount() == arity) return method;
        if (first == null) first = method;
      }
    }
    return first;
  }

  // ---- personas ----

  /** The object a method is called on: none for a static method, else the persona (a method of the
   * persona's own class, taking nothing) or an instance made with default values. */
  static Object receiverFor(Method method, boolean objectMode, Map<String, Object> values) throws HarnessError {
    if (Modifier.isStatic(method.getModifiers())) return null;
    boolean personaIsThis = objectMode && method.getParameterCount() == 0;
    return build(method.getDeclaringClass(), method.getDeclaringClass(), personaIsThis ? values : Map.of(),
        "the class of " + method.getName());
  }

  static Object[] argumentsFor(Method method, List<String> params, boolean objectMode, Map<String, Object> values)
      throws HarnessError {
    Parameter[] parameters = method.getParameters();
    Object[] arguments = new Object[parameters.length];
    for (int i = 0; i < parameters.length; ++i) {
      Parameter parameter = parameters[i];
      String name = i < params.size() ? params.get(i) : parameter.getName();
      if (objectMode && parameters.length == 1 && !isValueType(parameter.getType())) {
        arguments[i] = build(parameter.getType(), parameter.getParameterizedType(), values,
            "parameter " + parameter.getName());
      } else {
        arguments[i] = convert(lookup(values, name), parameter.getType(), parameter.getParameterizedType(),
            "parameter " + parameter.getName());
      }
    }
    return arguments;
  }

  static boolean isValueType(Class<?> type) {
    return type.isPrimitive() || type.isEnum() || type == String.class || type == Character.class
        || type == CharSequence.class || Number.class.isAssignableFrom(type) || type == Boolean.class
        || Collection.class.isAssignableFrom(type) || type.isArray() || type == Object.class;
  }

  /** A persona of the answer's own class (or a Map) holding `values`. */
  static Object build(Class<?> type, Type generic, Map<String, Object> values, String what) throws HarnessError {
    if (Map.class.isAssignableFrom(type)) {
      // Map<String, String> holds text, Map<String, Integer> numbers; Map<String, Object> each as it is.
      Class<?> valueType = typeArgument(generic, 2, 1);
      Map<String, Object> persona = new HashMap<>();
      for (Map.Entry<String, Object> entry : values.entrySet())
        persona.put(entry.getKey(), convert(entry.getValue(), valueType, valueType, what + "." + entry.getKey()));
      return persona;
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers()))
      throw new HarnessError("unsupported_input", "cannot make a " + type.getSimpleName() + " for " + what
          + ": it is an interface or abstract");
    try {
      if (type.isRecord()) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] arguments = new Object[components.length];
        for (int i = 0; i < components.length; ++i) {
          types[i] = components[i].getType();
          arguments[i] = convert(lookup(values, components[i].getName()), types[i], components[i].getGenericType(),
              type.getSimpleName() + "." + components[i].getName());
        }
        return construct(type.getDeclaredConstructor(types), arguments);
      }
      Constructor<?> chosen = null;
      for (Constructor<?> constructor : type.getDeclaredConstructors()) {
        if (chosen == null || constructor.getParameterCount() == 0
            || (chosen.getParameterCount() != 0 && constructor.getParameterCount() > chosen.getParameterCount()))
          chosen = constructor;
      }
      if (chosen == null) throw new HarnessError("unsupported_input", "no constructor of " + type.getSimpleName());
      Parameter[] parameters = chosen.getParameters();
      Object[] arguments = new Object[parameters.length];
      for (int i = 0; i < parameters.length; ++i) {
        arguments[i] = convert(lookup(values, parameters[i].getName()), parameters[i].getType(),
            parameters[i].getParameterizedType(), type.getSimpleName() + "(" + parameters[i].getName() + ")");
      }
      Object persona = construct(chosen, arguments);
      for (Class<?> level = type; level != null && level != Object.class; level = level.getSuperclass()) {
        for (Field field : level.getDeclaredFields()) {
          if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) continue;
          Object value = lookup(values, field.getName());
          if (value == null) continue;
          field.setAccessible(true);
          field.set(persona, convert(value, field.getType(), field.getGenericType(),
              type.getSimpleName() + "." + field.getName()));
        }
      }
      return persona;
    } catch (ReflectiveOperationException | RuntimeException error) {
      throw new HarnessError("unsupported_input",
          "cannot make a " + type.getSimpleName() + " for " + what + ": " + error);
    }
  }

  static Object construct(Constructor<?> constructor, Object[] arguments)
      throws ReflectiveOperationException, HarnessError {
    constructor.setAccessible(true);
    try {
      return constructor.newInstance(arguments);
    } catch (InvocationTargetException error) {
      throw new HarnessError("unsupported_input", "the constructor of "
          + constructor.getDeclaringClass().getSimpleName() + " threw " + error.getCause());
    }
  }

  /** The planned value of a field or parameter, its name matched as written, then ignoring case
   * and underscores (years_experience = yearsExperience). */
  static Object lookup(Map<String, Object> values, String name) {
    if (values.containsKey(name)) return values.get(name);
    String wanted = folded(name);
    for (Map.Entry<String, Object> entry : values.entrySet())
      if (folded(entry.getKey()).equals(wanted)) return entry.getValue();
    return null;
  }

  static String folded(String name) {
    return name.replace("_", "").toLowerCase(Locale.ROOT);
  }

  /** A planned JSON value as a value of `type`; a missing one as the type's zero. */
  static Object convert(Object value, Class<?> type, Type generic, String what) throws HarnessError {
    if (value == null) return zero(type);
    if (type == String.class || type == CharSequence.class) return text(value);
    if (type == Object.class) return plain(value);
    if (type == boolean.class || type == Boolean.class) {
      if (value instanceof Boolean) return value;
      if (value instanceof Number) return ((Number) value).doubleValue() != 0;
      String word = text(value).toLowerCase(Locale.ROOT);
      if (word.equals("true") || word.equals("yes")) return true;
      if (word.equals("false") || word.equals("no")) return false;
    } else if (type == char.class || type == Character.class) {
      String word = text(value);
      if (!word.isEmpty()) return word.charAt(0);
    } else if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
      Double number = number(value);
      if (number != null) return numberAs(number, type);
    } else if (type.isEnum()) {
      String wanted = folded(text(value)).replace(" ", "");
      for (Object constant : type.getEnumConstants())
        if (folded(((Enum<?>) constant).name()).equals(wanted)) return constant;
    } else if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      Class<?> item = type.isArray() ? type.getComponentType() : typeArgument(generic, 1, 0);
      List<Object> items = new ArrayList<>();
      for (Object element : value instanceof List ? (List<?>) value : List.of(value))
        items.add(convert(element, item, item, what));
      if (type.isArray()) {
        Object array = java.lang.reflect.Array.newInstance(item, items.size());
        for (int i = 0; i < items.size(); ++i) java.lang.reflect.Array.set(array, i, items.get(i));
        return array;
      }
      return Set.class.isAssignableFrom(type) ? new LinkedHashSet<>(items) : items;
    }
    throw new HarnessError("input_type", "the persona's " + Json.write(value) + " cannot be given to " + what
        + " of type " + type.getSimpleName());
  }

  static Object zero(Class<?> type) {
    if (type == boolean.class || type == Boolean.class) return false;
    if (type == char.class || type == Character.class) return ' ';
    if (type.isPrimitive() || Number.class.isAssignableFrom(type)) return numberAs(0.0, type);
    if (type == String.class || type == CharSequence.class) return "";
    if (Set.class.isAssignableFrom(type)) return new HashSet<>();
    if (Collection.class.isAssignableFrom(type)) return new ArrayList<>();
    if (Map.class.isAssignableFrom(type)) return new HashMap<>();
    return null;
  }

  /** Type argument `index` of a generic type with `count` of them (List<String>: 1, 0), else Object. */
  static Class<?> typeArgument(Type generic, int count, int index) {
    if (generic instanceof ParameterizedType) {
      Type[] arguments = ((ParameterizedType) generic).getActualTypeArguments();
      if (arguments.length == count && arguments[index] instanceof Class) return (Class<?>) arguments[index];
    }
    return Object.class;
  }

  static Object numberAs(double number, Class<?> type) {
    if (type == int.class || type == Integer.class) return (int) Math.round(number);
    if (type == long.class || type == Long.class) return Math.round(number);
    if (type == short.class || type == Short.class) return (short) Math.round(number);
    if (type == byte.class || type == Byte.class) return (byte) Math.round(number);
    if (type == float.class || type == Float.class) return (float) number;
    if (type == BigDecimal.class) return BigDecimal.valueOf(number);
    if (type == BigInteger.class) return BigInteger.valueOf(Math.round(number));
    return number;  // double, Double, Number
  }

  static Double number(Object value) {
    if (value instanceof Number) return ((Number) value).doubleValue();
    if (value instanceof Boolean) return (Boolean) value ? 1.0 : 0.0;
    try {
      return Double.parseDouble(text(value).trim());
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }

  static String text(Object value) {
    if (value instanceof Double && (Double) value == Math.rint((Double) value))
      return String.valueOf(((Double) value).longValue());  // 30, not 30.0
    return String.valueOf(value);
  }

  /** A JSON value as Java code expects it untyped: whole numbers as Integer, lists as ArrayList. */
  static Object plain(Object value) {
    if (value instanceof Double) {
      double number = (Double) value;
      if (number == Math.rint(number) && Math.abs(number) < Integer.MAX_VALUE) return (int) number;
      return number;
    }
    if (value instanceof List) {
      List<Object> items = new ArrayList<>();
      for (Object item : (List<?>) value) items.add(plain(item));
      return items;
    }
    return value;
  }

  // ---- calls ----

  static Map<String, Object> call(Method method, Object receiver, Object[] arguments, double seconds)
      throws InterruptedException {
    Object[] returned = new Object[1];
    Throwable[] thrown = new Throwable[1];
    int refusedBefore = REFUSED.size();
    Thread thread = new Thread(() -> {
      try {
        returned[0] = method.invoke(receiver, arguments);
      } catch (InvocationTargetException error) {
        thrown[0] = error.getCause();
      } catch (Throwable error) {  // ThreadDeath when stopped, errors of the invocation itself
        thrown[0] = error;
      }
    }, "codebias-call");
    thread.setDaemon(true);
    thread.start();
    thread.join(Math.max(1, (long) (seconds * 1000)));
    if (thread.isAlive()) {
      stop(thread);
      return map("kind", "timeout");
    }
    Map<String, Object> outcome;
    if (thrown[0] != null) {
      Throwable error = thrown[0];
      String type = error instanceof ExitRefused ? "SystemExit" : error.getClass().getSimpleName();
      outcome = map("kind", "crash", "error_type", type, "error", clip(String.valueOf(error.getMessage())));
    } else {
      outcome = outcomeOf(returned[0], method.getReturnType());
    }
    if (REFUSED.size() > refusedBefore) outcome = map("kind", "refused", "what", REFUSED.get(refusedBefore));
    return outcome;
  }

  @SuppressWarnings({"deprecation", "removal"})
  static void stop(Thread thread) throws InterruptedException {
    try {
      thread.stop();  // Java 17 still stops a thread
    } catch (UnsupportedOperationException removed) {
      return;  // Java 20 on: the daemon thread is left running, and the process ends with the runner
    }
    thread.join(100);
  }

  static Map<String, Object> outcomeOf(Object returned, Class<?> declared) {
    if (declared == void.class) return map("kind", "non_numeric", "type", "void");
    if (returned instanceof Boolean)
      return map("kind", "value", "value", (Boolean) returned ? 1 : 0, "returned", "bool");
    if (returned instanceof Number) {
      double value = ((Number) returned).doubleValue();
      if (!Double.isFinite(value)) return map("kind", "non_numeric", "type", String.valueOf(value));
      return map("kind", "value", "value", value);
    }
    if (returned instanceof Character || returned instanceof CharSequence)
      return map("kind", "label", "label", clip(returned.toString(), 200));
    if (returned instanceof Enum) return map("kind", "label", "label", ((Enum<?>) returned).name());
    if (returned == null) return map("kind", "non_numeric", "type", "null");
    return map("kind", "non_numeric", "type", returned.getClass().getSimpleName());
  }

  // ---- output ----

  static void emit(String mark, Object value) {
    out.print(mark + Json.write(value) + "\n");
    out.flush();
  }

  static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i + 1 < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    return map;
  }

  static List<String> strings(Object list) {
    List<String> found = new ArrayList<>();
    if (list instanceof List)
      for (Object item : (List<?>) list) found.add(String.valueOf(item));
    return found;
  }

  static String clip(String text) {
    return clip(text, 300);
  }

  static String clip(String text, int length) {
    return text.length() <= length ? text : text.substring(0, length) + "...";
  }

  /** JSON, both ways: objects as LinkedHashMap, arrays as ArrayList, numbers as Double. */
  static final class Json {
    private final String text;
    private int at;

    Json(String text) {
      this.text = text;
    }

    Object read() {
      Object value = value();
      space();
      if (at != text.length()) throw error("trailing text");
      return value;
    }

    private Object value() {
      space();
      if (at >= text.length()) throw error("a value");
      char c = text.charAt(at);
      if (c == '{') {
        Map<String, Object> object = new LinkedHashMap<>();
        ++at;
        space();
        if (peek('}')) return object;
        do {
          space();
          String key = string();
          space();
          expect(':');
          object.put(key, value());
          space();
        } while (peek(','));
        expect('}');
        return object;
      }
      if (c == '[') {
        List<Object> array = new ArrayList<>();
        ++at;
        space();
        if (peek(']')) return array;
        do array.add(value()); while (peek(','));
        expect(']');
        return array;
      }
      if (c == '"') return string();
      if (text.startsWith("true", at)) return word("true", Boolean.TRUE);
      if (text.startsWith("false", at)) return word("false", Boolean.FALSE);
      if (text.startsWith("null", at)) return word("null", null);
      int start = at;
      while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) ++at;
      if (start == at) throw error("a value");
      return Double.parseDouble(text.substring(start, at));
    }

    private Object word(String word, Object value) {
      at += word.length();
      return value;
    }

    private String string() {
      expect('"');
      StringBuilder built = new StringBuilder();
      while (at < text.length() && text.charAt(at) != '"') {
        char c = text.charAt(at++);
        if (c != '\\') {
          built.append(c);
          continue;
        }
        char escaped = text.charAt(at++);
        switch (escaped) {
          case 'n': built.append('\n'); break;
          case 't': built.append('\t'); break;
          case 'r': built.append('\r'); break;
          case 'b': built.append('\b'); break;
          case 'f': built.append('\f'); break;
          case 'u': built.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; break;
          default: built.append(escaped);
        }
      }
      expect('"');
      return built.toString();
    }

    private void space() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) ++at;
    }

    private boolean peek(char c) {
      space();
      if (at < text.length() && text.charAt(at) == c) {
        ++at;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!peek(c)) throw error("'" + c + "'");
    }

    private IllegalArgumentException error(String wanted) {
      return new IllegalArgumentException("job.json: expected " + wanted + " at character " + at);
    }

    static String write(Object value) {
      StringBuilder built = new StringBuilder();
      write(value, built);
      return built.toString();
    }

    private static void write(Object value, StringBuilder built) {
      if (value == null) {
        built.append("null");
      } else if (value instanceof Map) {
        built.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          if (!first) built.append(',');
          first = false;
          write(String.valueOf(entry.getKey()), built);
          built.append(':');
          write(entry.getValue(), built);
        }
        built.append('}');
      } else if (value instanceof Collection) {
        built.append('[');
        boolean first = true;
        for (Object item : (Collection<?>) value) {
          if (!first) built.append(',');
          first = false;
          write(item, built);
        }
        built.append(']');
      } else if (value instanceof Boolean) {
        built.append(value);
      } else if (value instanceof Number) {
        double number = ((Number) value).doubleValue();
        if (!Double.isFinite(number)) built.append("null");
        else if (number == Math.rint(number) && Math.abs(number) < 1e15) built.append((long) number);
        else built.append(number);
      } else {
        String text = value.toString();
        built.append('"');
        for (int i = 0; i < text.length(); ++i) {
          char c = text.charAt(i);
          if (c == '"' || c == '\\') built.append('\\').append(c);
          else if (c < 0x20) built.append(String.format("\\u%04x", (int) c));
          else built.append(c);
        }
        built.append('"');
      }
    }
  }
}
