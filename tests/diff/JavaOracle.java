// JavaOracle: the error sites of Java files as javac's own parser sees them
// (JavacTask.parse() and the com.sun.source tree API; no classpath, no
// annotation processing), for tests/diff/lang_oracle.py. It applies the site and
// message rules of src/extract/java/java_extractor.h a second time, written
// independently of errdex: string literals and text blocks are the values javac
// computed (LiteralTree.getValue()).
//
//   java -cp DIR JavaOracle ROOT -    (files relative to ROOT, one per line on stdin)
//
// One JSON line per site: {"file","line","kind","class","segs"}, segs the message
// as [[is_hole, text], ...] or null; {"file","error"} for a file javac cannot parse.
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.Modifier;
import javax.tools.*;

public class JavaOracle {
  // A message: a list of segments, each {hole?, text}.
  record Seg(boolean hole, String text) {}

  static final class Msg {
    final List<Seg> segs = new ArrayList<>();
    Msg add(Seg s) {
      if (!s.hole && s.text.isEmpty()) return this;
      if (!s.hole && !segs.isEmpty() && !segs.get(segs.size() - 1).hole) {
        Seg last = segs.remove(segs.size() - 1);
        segs.add(new Seg(false, last.text + s.text));
      } else {
        segs.add(s);
      }
      return this;
    }
    Msg addAll(Msg m) { for (Seg s : m.segs) add(s); return this; }
    boolean hasLit() { return segs.stream().anyMatch(s -> !s.hole && !s.text.isEmpty()); }
    boolean allLit() { return segs.stream().noneMatch(s -> s.hole); }
    static Msg lit(String t) { return new Msg().add(new Seg(false, t)); }
    static Msg hole(String t) { return new Msg().add(new Seg(true, t)); }
  }

  // java.util.Formatter: %[index$][flags][width][.precision]conversion; s/S/d print a
  // string argument as it is, other conversions are holes; %n newline, %% percent.
  static Msg printf(Msg fmt, List<Msg> args) {
    Msg out = new Msg();
    int next = 0;
    for (Seg s : fmt.segs) {
      if (s.hole) { out.add(s); continue; }
      String t = s.text;
      StringBuilder buf = new StringBuilder();
      int i = 0;
      while (i < t.length()) {
        char c = t.charAt(i);
        if (c != '%') { buf.append(c); i++; continue; }
        if (i + 1 < t.length() && t.charAt(i + 1) == '%') { buf.append('%'); i += 2; continue; }
        int j = i + 1;
        Integer explicit = null;
        int k = j;
        while (k < t.length() && Character.isDigit(t.charAt(k))) k++;
        if (k > j && k < t.length() && t.charAt(k) == '$') {
          explicit = Integer.parseInt(t.substring(j, k)) - 1;
          j = k + 1;
        } else if (j < t.length() && t.charAt(j) == '<') {
          explicit = next == 0 ? 0 : next - 1;
          j++;
        }
        while (j < t.length() && "-+ #0',(".indexOf(t.charAt(j)) >= 0) j++;
        while (j < t.length() && Character.isDigit(t.charAt(j))) j++;
        if (j < t.length() && t.charAt(j) == '.') {
          j++;
          while (j < t.length() && Character.isDigit(t.charAt(j))) j++;
        }
        if (j >= t.length() || !isAsciiLetter(t.charAt(j))) { buf.append('%'); i++; continue; }
        char conv = t.charAt(j);
        if ((conv == 't' || conv == 'T') && j + 1 < t.length()) j++;
        j++;
        if (conv == 'n') { buf.append('\n'); i = j; continue; }
        out.add(new Seg(false, buf.toString()));
        buf.setLength(0);
        int index = explicit != null ? explicit : next++;
        if (index >= args.size()) out.add(new Seg(true, t.substring(i, j)));
        else if (conv == 's' || conv == 'S' || conv == 'd') out.addAll(args.get(index));
        else out.add(new Seg(true, "arg"));
        i = j;
      }
      out.add(new Seg(false, buf.toString()));
    }
    return out;
  }

  static boolean isAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

  // Guava Strings.lenientFormat: each %s takes the next argument; the rest " [a, b]".
  static Msg guava(Msg fmt, List<Msg> args) {
    Msg out = new Msg();
    int next = 0;
    for (Seg s : fmt.segs) {
      if (s.hole) { out.add(s); continue; }
      String t = s.text;
      StringBuilder buf = new StringBuilder();
      for (int i = 0; i < t.length(); i++) {
        if (t.startsWith("%%", i)) { buf.append('%'); i++; continue; }
        if (t.startsWith("%s", i) && next < args.size()) {
          out.add(new Seg(false, buf.toString()));
          buf.setLength(0);
          out.addAll(args.get(next++));
          i++;
          continue;
        }
        buf.append(t.charAt(i));
      }
      out.add(new Seg(false, buf.toString()));
    }
    if (next < args.size()) {
      out.add(new Seg(false, " ["));
      for (int k = next; k < args.size(); k++) {
        if (k > next) out.add(new Seg(false, ", "));
        out.addAll(args.get(k));
      }
      out.add(new Seg(false, "]"));
    }
    return out;
  }

  // SLF4J: {} takes the next argument (none left: printed as is), \{} is "{}".
  static Msg slf4j(Msg fmt, List<Msg> args) {
    Msg out = new Msg();
    int next = 0;
    for (Seg s : fmt.segs) {
      if (s.hole) { out.add(s); continue; }
      String t = s.text;
      StringBuilder buf = new StringBuilder();
      for (int i = 0; i < t.length(); i++) {
        if (t.startsWith("\\{}", i)) { buf.append("{}"); i += 2; continue; }
        if (t.startsWith("{}", i)) {
          out.add(new Seg(false, buf.toString()));
          buf.setLength(0);
          if (next < args.size()) out.addAll(args.get(next++));
          else buf.append("{}");
          i++;
          continue;
        }
        buf.append(t.charAt(i));
      }
      out.add(new Seg(false, buf.toString()));
    }
    return out;
  }

  // java.text.MessageFormat: {n} / {n,type}; '' is a quote, '...' quoted text.
  static Msg messageFormat(Msg fmt, List<Msg> args) {
    Msg out = new Msg();
    for (Seg s : fmt.segs) {
      if (s.hole) { out.add(s); continue; }
      String t = s.text;
      StringBuilder buf = new StringBuilder();
      int i = 0;
      while (i < t.length()) {
        char c = t.charAt(i);
        if (c == '\'') {
          if (i + 1 < t.length() && t.charAt(i + 1) == '\'') { buf.append('\''); i += 2; continue; }
          int close = t.indexOf('\'', i + 1);
          if (close < 0) close = t.length();
          buf.append(t, i + 1, close);
          i = close + 1;
          continue;
        }
        if (c != '{') { buf.append(c); i++; continue; }
        int close = t.indexOf('}', i + 1);
        if (close < 0) { buf.append(t.substring(i)); break; }
        String field = t.substring(i + 1, close);
        int comma = field.indexOf(',');
        String id = (comma < 0 ? field : field.substring(0, comma)).trim();
        out.add(new Seg(false, buf.toString()));
        buf.setLength(0);
        if (!id.isEmpty() && id.chars().allMatch(Character::isDigit) && Integer.parseInt(id) < args.size())
          out.addAll(args.get(Integer.parseInt(id)));
        else
          out.add(new Seg(true, t.substring(i, close + 1)));
        i = close + 1;
      }
      out.add(new Seg(false, buf.toString()));
    }
    return out;
  }

  record Entry(long start, long end, int kind, ExpressionTree value) {}  // kind 0 decl, 1 =, 2 +=

  final CompilationUnitTree cu;
  final SourcePositions sp;
  final String file;
  final Map<String, ExpressionTree> fields = new HashMap<>();
  final Map<Tree, Map<String, List<Entry>>> scopes = new HashMap<>();
  Tree scope;
  final List<String> out = new ArrayList<>();

  JavaOracle(CompilationUnitTree cu, SourcePositions sp, String file) {
    this.cu = cu;
    this.sp = sp;
    this.file = file;
  }

  void collectFields(List<? extends Tree> members) {
    for (Tree m : members) {
      if (m instanceof VariableTree v && v.getModifiers().getFlags().contains(Modifier.FINAL) && v.getInitializer() != null)
        fields.put(v.getName().toString(), v.getInitializer());
      if (m instanceof ClassTree c) collectFields(c.getMembers());
    }
  }

  Map<String, List<Entry>> table(Tree s) {
    return scopes.computeIfAbsent(s, key -> {
      Map<String, List<Entry>> t = new HashMap<>();
      new TreeScanner<Void, Void>() {
        void decl(StatementTree st) {
          if (st instanceof VariableTree v)
            t.computeIfAbsent(v.getName().toString(), n -> new ArrayList<>())
                .add(new Entry(sp.getStartPosition(cu, v), sp.getEndPosition(cu, v), 0, v.getInitializer()));
        }
        @Override public Void visitBlock(BlockTree b, Void p) {
          for (StatementTree st : b.getStatements()) decl(st);
          return super.visitBlock(b, p);
        }
        @Override public Void visitCase(CaseTree c, Void p) {
          if (c.getStatements() != null) for (StatementTree st : c.getStatements()) decl(st);
          return super.visitCase(c, p);
        }
        @Override public Void visitForLoop(ForLoopTree f, Void p) {
          for (StatementTree st : f.getInitializer()) decl(st);
          return super.visitForLoop(f, p);
        }
        @Override public Void visitAssignment(AssignmentTree a, Void p) {
          if (a.getVariable() instanceof IdentifierTree id)
            t.computeIfAbsent(id.getName().toString(), n -> new ArrayList<>())
                .add(new Entry(sp.getStartPosition(cu, a), sp.getEndPosition(cu, a), 1, a.getExpression()));
          return super.visitAssignment(a, p);
        }
        @Override public Void visitCompoundAssignment(CompoundAssignmentTree a, Void p) {
          if (a.getKind() == Tree.Kind.PLUS_ASSIGNMENT && a.getVariable() instanceof IdentifierTree id)
            t.computeIfAbsent(id.getName().toString(), n -> new ArrayList<>())
                .add(new Entry(sp.getStartPosition(cu, a), sp.getEndPosition(cu, a), 2, a.getExpression()));
          return super.visitCompoundAssignment(a, p);
        }
      }.scan(key, null);
      for (List<Entry> l : t.values()) l.sort(Comparator.comparingLong(Entry::start));
      return t;
    });
  }

  Msg local(String name, long pos, int depth) {
    if (scope == null) return null;
    List<Entry> l = table(scope).get(name);
    if (l == null) return null;
    int decl = -1;
    for (int i = 0; i < l.size() && l.get(i).end <= pos; i++) if (l.get(i).kind == 0) decl = i;
    if (decl < 0) return null;
    Msg v = l.get(decl).value == null ? Msg.hole(name) : eval(l.get(decl).value, depth + 1);
    for (int i = decl + 1; i < l.size() && l.get(i).end <= pos; i++) {
      Entry e = l.get(i);
      if (e.kind == 1) v = eval(e.value, depth + 1);
      else if (e.kind == 2) v = new Msg().addAll(v).addAll(eval(e.value, depth + 1));
      else break;
    }
    return v;
  }

  Msg eval(ExpressionTree e, int depth) {
    if (e == null) return new Msg();
    if (depth > 64) return Msg.hole(e.toString());
    if (e instanceof LiteralTree l && l.getKind() == Tree.Kind.STRING_LITERAL) return Msg.lit((String) l.getValue());
    if (e instanceof ParenthesizedTree p) return eval(p.getExpression(), depth + 1);
    if (e instanceof BinaryTree b && b.getKind() == Tree.Kind.PLUS)
      return new Msg().addAll(eval(b.getLeftOperand(), depth + 1)).addAll(eval(b.getRightOperand(), depth + 1));
    if (e instanceof IdentifierTree id) {
      String name = id.getName().toString();
      Msg v = local(name, sp.getStartPosition(cu, id), depth);
      if (v != null) return v;
      ExpressionTree f = fields.get(name);
      if (f instanceof LiteralTree || f instanceof BinaryTree) {
        Tree saved = scope;
        scope = null;
        Msg fv = eval(f, depth + 1);
        scope = saved;
        if (fv.allLit()) return fv;
      }
    }
    if (e instanceof MethodInvocationTree mi && mi.getMethodSelect() instanceof MemberSelectTree ms) {
      String obj = ms.getExpression().toString();
      String m = ms.getIdentifier().toString();
      List<? extends ExpressionTree> args = mi.getArguments();
      boolean string = obj.equals("String") || obj.equals("java.lang.String");
      if (string && m.equals("format") && !args.isEmpty()) return printf(eval(args.get(0), depth + 1), rest(args, 1, depth));
      if (m.equals("formatted") && ms.getExpression() instanceof LiteralTree l && l.getKind() == Tree.Kind.STRING_LITERAL)
        return printf(eval(ms.getExpression(), depth + 1), rest(args, 0, depth));
      if ((obj.equals("MessageFormat") || obj.equals("java.text.MessageFormat")) && m.equals("format") && !args.isEmpty())
        return messageFormat(eval(args.get(0), depth + 1), rest(args, 1, depth));
      if (string && m.equals("valueOf") && args.size() == 1) return eval(args.get(0), depth + 1);
    }
    return Msg.hole(e.toString());
  }

  List<Msg> rest(List<? extends ExpressionTree> args, int from, int depth) {
    List<Msg> r = new ArrayList<>();
    for (int i = from; i < args.size(); i++) r.add(eval(args.get(i), depth + 1));
    return r;
  }

  static String json(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') b.append("\\\"");
      else if (c == '\\') b.append("\\\\");
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  void site(Tree at, String kind, String cls, Msg m) {
    long line = cu.getLineMap().getLineNumber(sp.getStartPosition(cu, at));
    StringBuilder b = new StringBuilder();
    b.append("{\"file\":").append(json(file)).append(",\"line\":").append(line).append(",\"kind\":\"").append(kind)
        .append("\",\"class\":").append(cls == null ? "null" : json(cls)).append(",\"segs\":");
    if (m == null || m.segs.isEmpty()) {
      b.append("null");
    } else {
      b.append('[');
      for (int i = 0; i < m.segs.size(); i++) {
        Seg s = m.segs.get(i);
        b.append(i > 0 ? "," : "").append('[').append(s.hole).append(',').append(json(s.text)).append(']');
      }
      b.append(']');
    }
    out.add(b.append('}').toString());
  }

  static String simpleName(Tree t) {
    if (t instanceof ParameterizedTypeTree p) return simpleName(p.getType());
    if (t instanceof MemberSelectTree m) return m.getIdentifier().toString();
    if (t instanceof IdentifierTree i) return i.getName().toString();
    if (t instanceof AnnotatedTypeTree a) return simpleName(a.getUnderlyingType());
    return t.toString();
  }

  void scan() {
    collectFields(cu.getTypeDecls());
    new TreeScanner<Void, Void>() {
      final Deque<Tree> methods = new ArrayDeque<>();
      @Override public Void visitClass(ClassTree c, Void p) {
        for (Tree m : c.getMembers()) {
          if (m instanceof BlockTree b && methods.isEmpty()) {  // a static or instance initializer
            methods.push(b);
            scan(b, p);
            methods.pop();
          } else {
            scan(m, p);
          }
        }
        scan(c.getModifiers(), p);
        return null;
      }
      @Override public Void visitMethod(MethodTree m, Void p) {
        methods.push(m);
        super.visitMethod(m, p);
        methods.pop();
        return null;
      }
      Tree outermost() { return methods.isEmpty() ? null : methods.peekLast(); }
      @Override public Void visitThrow(ThrowTree t, Void p) {
        if (t.getExpression() instanceof NewClassTree nc) {
          scope = outermost();
          Msg m = null;
          List<? extends ExpressionTree> args = nc.getArguments();
          for (int i = 0; i < args.size() && i < 2; i++) {
            Msg v = eval(args.get(i), 0);
            if (v.hasLit()) { m = v; break; }
          }
          site(t, "raise", simpleName(nc.getIdentifier()), m);
        }
        return super.visitThrow(t, p);
      }
      @Override public Void visitMethodInvocation(MethodInvocationTree mi, Void p) {
        invocation(mi);
        return super.visitMethodInvocation(mi, p);
      }
      void invocation(MethodInvocationTree mi) {
        String name;
        String obj = null;
        if (mi.getMethodSelect() instanceof MemberSelectTree ms) {
          name = ms.getIdentifier().toString();
          obj = ms.getExpression().toString();
        } else if (mi.getMethodSelect() instanceof IdentifierTree id) {
          name = id.getName().toString();
        } else {
          return;
        }
        List<? extends ExpressionTree> args = mi.getArguments();
        if (args.isEmpty()) return;
        String cls = switch (name) {
          case "checkArgument" -> "IllegalArgumentException";
          case "checkState" -> "IllegalStateException";
          case "checkNotNull" -> "NullPointerException";
          default -> null;
        };
        if (cls != null && (obj == null || obj.equals("Preconditions") || obj.equals("com.google.common.base.Preconditions"))) {
          Msg m = null;
          if (args.size() >= 2) {
            scope = outermost();
            m = guava(eval(args.get(1), 0), rest(args, 2, 0));
          }
          site(mi, "raise", cls, m);
          return;
        }
        // Apache Commons Validate / Spring Assert: {class, message argument, formats with
        // String.format when values follow}.
        String simple = obj == null ? null : obj.substring(obj.lastIndexOf('.') + 1);
        String pkg = obj == null || obj.lastIndexOf('.') < 0 ? "" : obj.substring(0, obj.lastIndexOf('.'));
        boolean known = pkg.isEmpty() || pkg.equals("org.apache.commons.lang3") || pkg.equals("org.apache.commons.lang")
            || pkg.equals("org.springframework.util");
        Object[] helper = !known || simple == null ? null : switch (simple + "." + name) {
          case "Validate.isTrue", "Validate.notEmpty", "Validate.notBlank", "Validate.noNullElements" ->
              new Object[] {"IllegalArgumentException", 1, true};
          case "Validate.validState" -> new Object[] {"IllegalStateException", 1, true};
          case "Validate.notNull" -> new Object[] {"NullPointerException", 1, true};
          case "Validate.validIndex" -> new Object[] {"IndexOutOfBoundsException", 2, true};
          case "Validate.matchesPattern" -> new Object[] {"IllegalArgumentException", 2, true};
          case "Validate.inclusiveBetween", "Validate.exclusiveBetween" -> new Object[] {"IllegalArgumentException", 3, true};
          case "Assert.isTrue", "Assert.notNull", "Assert.hasText", "Assert.hasLength", "Assert.notEmpty",
              "Assert.noNullElements" -> new Object[] {"IllegalArgumentException", 1, false};
          case "Assert.state" -> new Object[] {"IllegalStateException", 1, false};
          default -> null;
        };
        if (helper != null && args.size() > (int) helper[1]) {
          int at = (int) helper[1];
          scope = outermost();
          Msg text = eval(args.get(at), 0);
          if (!text.hasLit()) return;
          if ((boolean) helper[2] && args.size() > at + 1) text = printf(text, rest(args, at + 1, 0));
          site(mi, "raise", (String) helper[0], text);
          return;
        }
        if (("Objects".equals(obj) || "java.util.Objects".equals(obj)) && name.equals("requireNonNull") && args.size() == 2) {
          scope = outermost();
          site(mi, "raise", "NullPointerException", eval(args.get(1), 0));
          return;
        }
        if (obj == null) return;
        int first = 0;
        boolean mf = false;
        boolean level = false;
        switch (name) {
          case "error", "fatal", "warn" -> level = true;
          case "severe", "warning" -> { level = true; mf = true; }
          case "log" -> {
            String lv = args.get(0).toString();
            if (args.size() >= 2 && (lv.equals("Level.SEVERE") || lv.equals("java.util.logging.Level.SEVERE")
                || lv.equals("Level.WARNING") || lv.equals("java.util.logging.Level.WARNING"))) {
              level = true;
              first = 1;
              mf = true;
            }
          }
          default -> {}
        }
        if (!level) return;
        scope = outermost();
        Msg fmt = eval(args.get(first), 0);
        if (!fmt.hasLit()) return;
        List<Msg> r = rest(args, first + 1, 0);
        Msg v = mf && r.isEmpty() ? fmt : mf ? messageFormat(fmt, r) : slf4j(fmt, r);
        site(mi, "log", null, v);
      }
    }.scan(cu, null);
  }

  public static void main(String[] argv) throws Exception {
    if (argv.length != 2 || !argv[1].equals("-")) {
      System.err.println("usage: java JavaOracle ROOT - < files");
      System.exit(2);
    }
    Path root = Paths.get(argv[0]);
    List<String> rels = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String l; (l = in.readLine()) != null; ) if (!l.isEmpty()) rels.add(l);
    }
    PrintStream stdout = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
    // Files in batches: one javac task per batch keeps memory bounded.
    for (int from = 0; from < rels.size(); from += 200) {
      List<String> batch = rels.subList(from, Math.min(rels.size(), from + 200));
      Map<String, String> byPath = new HashMap<>();
      List<File> files = new ArrayList<>();
      for (String r : batch) {
        File f = root.resolve(r).toFile();
        files.add(f);
        byPath.put(f.getPath(), r);
      }
      DiagnosticCollector<JavaFileObject> dc = new DiagnosticCollector<>();
      StandardJavaFileManager fm = jc.getStandardFileManager(dc, null, StandardCharsets.UTF_8);
      JavacTask task = (JavacTask) jc.getTask(null, fm, dc, List.of("-proc:none", "-encoding", "UTF-8"), null,
                                              fm.getJavaFileObjectsFromFiles(files));
      Iterable<? extends CompilationUnitTree> units = task.parse();
      Set<String> failed = new HashSet<>();
      for (Diagnostic<? extends JavaFileObject> d : dc.getDiagnostics()) {
        if (d.getKind() != Diagnostic.Kind.ERROR || d.getSource() == null) continue;
        String r = byPath.getOrDefault(Paths.get(d.getSource().toUri()).toString(), d.getSource().getName());
        if (failed.add(r))
          stdout.println("{\"file\":" + json(r) + ",\"error\":" + json(d.getLineNumber() + ": " + d.getMessage(null)) + "}");
      }
      SourcePositions sp = Trees.instance(task).getSourcePositions();
      for (CompilationUnitTree cu : units) {
        String r = byPath.getOrDefault(Paths.get(cu.getSourceFile().toUri()).toString(), cu.getSourceFile().getName());
        if (failed.contains(r)) continue;
        JavaOracle o = new JavaOracle(cu, sp, r);
        o.scan();
        for (String line : o.out) stdout.println(line);
      }
      fm.close();
    }
    stdout.flush();
  }
}
