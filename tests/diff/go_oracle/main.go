// go_oracle: the error sites of Go files as Go's own go/parser and go/ast see
// them, for tests/diff/lang_oracle.py. It applies the site and message rules of
// src/extract/go/go_extractor.h a second time, written independently of errdex:
// string literals are decoded by strconv.Unquote, the tree is the compiler
// front end's.
//
//	go_oracle ROOT -   (the files, relative to ROOT, one per line on stdin)
//
// One JSON line per site: {"file","line","kind","class","segs"}, segs the message
// as [[is_hole, text], ...] or null; {"file","error"} for a file that does not parse.
package main

import (
	"bufio"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

type seg struct {
	hole bool
	text string
}
type segs []seg

func (s segs) MarshalJSON() ([]byte, error) {
	out := make([][2]interface{}, len(s))
	for i, x := range s {
		out[i] = [2]interface{}{x.hole, x.text}
	}
	return json.Marshal(out)
}

func (s segs) add(x seg) segs {
	if !x.hole && x.text == "" {
		return s
	}
	if !x.hole && len(s) > 0 && !s[len(s)-1].hole {
		c := append(segs{}, s...)
		c[len(c)-1].text += x.text
		return c
	}
	return append(append(segs{}, s...), x)
}
func (s segs) addAll(m segs) segs {
	for _, x := range m {
		s = s.add(x)
	}
	return s
}
func (s segs) hasLit() bool {
	for _, x := range s {
		if !x.hole && x.text != "" {
			return true
		}
	}
	return false
}
func (s segs) allLit() bool {
	for _, x := range s {
		if x.hole {
			return false
		}
	}
	return true
}
func lit(t string) segs  { return segs{}.add(seg{false, t}) }
func hole(t string) segs { return segs{{true, t}} }

type site struct {
	File  string  `json:"file"`
	Line  int     `json:"line"`
	Kind  string  `json:"kind"`
	Class *string `json:"class"`
	Segs  *segs   `json:"segs"`
}

type oracle struct {
	fset      *token.FileSet
	src       []byte
	file      string
	consts    map[string]ast.Expr
	sentinels map[*ast.CallExpr]string
	sites     []site
}

func (o *oracle) text(n ast.Node) string {
	a, b := o.fset.Position(n.Pos()).Offset, o.fset.Position(n.End()).Offset
	if a < 0 || b > len(o.src) || b < a {
		return ""
	}
	return string(o.src[a:b])
}

// printf applies Go's fmt verbs: %% is '%', [flags][width][.prec] then a verb;
// %[n]v picks argument n; * takes an argument; s, v and d print a string argument
// as it is, other verbs (and missing arguments) are holes.
func printf(f segs, args []segs) segs {
	var out segs
	next := 0
	for _, s := range f {
		if s.hole {
			out = out.add(s)
			continue
		}
		t := s.text
		buf := ""
		for i := 0; i < len(t); {
			if t[i] != '%' {
				buf += t[i : i+1]
				i++
				continue
			}
			if i+1 < len(t) && t[i+1] == '%' {
				buf += "%"
				i += 2
				continue
			}
			j := i + 1
			for j < len(t) && strings.IndexByte("-+ #0'", t[j]) >= 0 {
				j++
			}
			explicit := -1
			if j < len(t) && t[j] == '[' {
				k := j + 1
				for k < len(t) && t[k] >= '0' && t[k] <= '9' {
					k++
				}
				if k < len(t) && t[k] == ']' && k > j+1 {
					n, _ := strconv.Atoi(t[j+1 : k])
					explicit = n - 1
					j = k + 1
				}
			}
			if j < len(t) && t[j] == '*' {
				next++
				j++
			} else {
				for j < len(t) && t[j] >= '0' && t[j] <= '9' {
					j++
				}
			}
			if j < len(t) && t[j] == '.' {
				j++
				if j < len(t) && t[j] == '*' {
					next++
					j++
				} else {
					for j < len(t) && t[j] >= '0' && t[j] <= '9' {
						j++
					}
				}
			}
			if j >= len(t) || !(t[j] >= 'a' && t[j] <= 'z' || t[j] >= 'A' && t[j] <= 'Z') {
				buf += "%"
				i++
				continue
			}
			verb := t[j]
			j++
			out = out.add(seg{false, buf})
			buf = ""
			idx := next
			if explicit >= 0 {
				idx = explicit
			}
			next = idx + 1
			if idx >= len(args) {
				out = out.add(seg{true, t[i:j]})
			} else if verb == 'q' && args[idx].allLit() {
				text := ""
				for _, x := range args[idx] {
					text += x.text
				}
				out = out.add(seg{false, strconv.Quote(text)})
			} else if verb == 's' || verb == 'v' || verb == 'd' {
				out = out.addAll(args[idx])
			} else if len(args[idx]) == 1 && args[idx][0].hole {
				out = out.add(args[idx][0])
			} else {
				out = out.add(seg{true, "arg"})
			}
			i = j
		}
		out = out.add(seg{false, buf})
	}
	return out
}

func (o *oracle) printfArgs(c *ast.CallExpr, first int) segs {
	if first >= len(c.Args) {
		return nil
	}
	rest := c.Args[first+1:]
	if c.Ellipsis.IsValid() && len(rest) > 0 {
		rest = rest[:len(rest)-1]
	}
	var args []segs
	for _, a := range rest {
		args = append(args, o.eval(a, true))
	}
	return printf(o.eval(c.Args[first], true), args)
}

func (o *oracle) eval(e ast.Expr, consts bool) segs {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			if s, err := strconv.Unquote(x.Value); err == nil {
				return lit(s)
			}
		}
	case *ast.ParenExpr:
		return o.eval(x.X, consts)
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return o.eval(x.X, consts).addAll(o.eval(x.Y, consts))
		}
	case *ast.Ident:
		if v, ok := o.consts[x.Name]; ok && consts {
			if s := o.eval(v, false); s.allLit() {
				return s
			}
		}
	case *ast.CallExpr:
		if !consts {
			break
		}
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if id.Name == "fmt" && (sel.Sel.Name == "Sprintf" || sel.Sel.Name == "Errorf") {
					return o.printfArgs(x, 0)
				}
				if (id.Name == "errors" || id.Name == "xerrors") && sel.Sel.Name == "New" && len(x.Args) == 1 {
					return o.eval(x.Args[0], true)
				}
			}
		}
	}
	return hole(o.text(e))
}

func (o *oracle) add(n ast.Node, kind string, class string, hasClass bool, m segs) {
	s := site{File: o.file, Line: o.fset.Position(n.Pos()).Line, Kind: kind}
	if hasClass {
		c := class
		s.Class = &c
	}
	if len(m) > 0 {
		s.Segs = &m
	}
	o.sites = append(o.sites, s)
}

var errorMethods = map[string]string{
	"Error": "error", "Errorf": "error", "Errorw": "error", "Errorln": "error", "ErrorS": "error", "ErrorContext": "error",
	"Warn": "warning", "Warnf": "warning", "Warnw": "warning", "Warnln": "warning", "Warning": "warning",
	"Warningf": "warning", "Warningln": "warning", "WarningS": "warning", "WarnContext": "warning",
}
var stopMethods = map[string]bool{"Fatal": true, "Fatalf": true, "Fatalln": true, "Fatalw": true, "Exit": true,
	"Exitf": true, "Exitln": true, "Panic": true, "Panicf": true, "Panicln": true}

func (o *oracle) call(c *ast.CallExpr) {
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		if fn.Name == "panic" && len(c.Args) == 1 {
			o.add(c, "panic", "panic", true, o.eval(c.Args[0], true))
		}
	case *ast.SelectorExpr:
		recv := ""
		if id, ok := fn.X.(*ast.Ident); ok {
			recv = id.Name
		}
		m := fn.Sel.Name
		if len(c.Args) == 0 {
			return
		}
		class := "error"
		if s, ok := o.sentinels[c]; ok {
			class = s
		}
		errs := recv == "errors" || recv == "xerrors" || recv == "pkgerrors"
		switch {
		case errs && m == "New" && len(c.Args) == 1:
			o.add(c, "raise", class, true, o.eval(c.Args[0], true))
			return
		case (errs || recv == "fmt") && m == "Errorf":
			o.add(c, "raise", class, true, o.printfArgs(c, 0))
			return
		case errs && (m == "Wrap" || m == "Wrapf") && len(c.Args) >= 2:
			var v segs
			if m == "Wrap" {
				v = o.eval(c.Args[1], true)
			} else {
				v = o.printfArgs(c, 1)
			}
			o.add(c, "raise", class, true, v.add(seg{false, ": "}).add(seg{true, "cause"}))
			return
		case recv == "status" && (m == "Errorf" || m == "Error" || m == "New" || m == "Newf") && len(c.Args) >= 2:
			code := o.text(c.Args[0])
			if k := strings.LastIndexByte(code, '.'); k >= 0 {
				code = code[k+1:]
			}
			var v segs
			if m == "Errorf" || m == "Newf" {
				v = o.printfArgs(c, 1)
			} else {
				v = o.eval(c.Args[1], true)
			}
			o.add(c, "http_response", code, true, v)
			return
		case recv == "http" && m == "Error" && len(c.Args) == 3:
			o.add(c, "http_response", "", false, o.eval(c.Args[1], true))
			return
		}
		if recv == "fmt" || errs || recv == "status" || recv == "http" {
			return
		}
		stdLog := recv == "log" || recv == "klog" || recv == "glog"
		printfStyle := strings.HasSuffix(m, "f")
		if strings.HasPrefix(m, "Fatal") || (stdLog && (strings.HasPrefix(m, "Exit") || strings.HasPrefix(m, "Panic"))) {
			if !stopMethods[m] {
				return
			}
			cls := "fatal"
			if strings.HasPrefix(m, "Panic") {
				cls = "panic"
			}
			var v segs
			if printfStyle {
				v = o.printfArgs(c, 0)
			} else {
				v = o.eval(c.Args[0], true)
			}
			o.add(c, "panic", cls, true, v)
			return
		}
		if _, ok := errorMethods[m]; !ok {
			return
		}
		first := 0
		if m == "ErrorContext" || m == "WarnContext" {
			first = 1
		}
		var v segs
		if printfStyle {
			v = o.printfArgs(c, first)
		} else {
			for k := first; k < len(c.Args) && k < first+2; k++ {
				if x := o.eval(c.Args[k], true); x.hasLit() {
					v = x
					break
				}
			}
		}
		if v.hasLit() {
			o.add(c, "log", "", false, v)
		}
	}
}

func main() {
	if len(os.Args) != 3 || os.Args[2] != "-" {
		os.Stderr.WriteString("usage: go_oracle ROOT - < files\n")
		os.Exit(2)
	}
	root := os.Args[1]
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		rel := in.Text()
		if rel == "" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			enc.Encode(map[string]string{"file": rel, "error": err.Error()})
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			enc.Encode(map[string]string{"file": rel, "error": err.Error()})
			continue
		}
		o := &oracle{fset: fset, src: src, file: rel, consts: map[string]ast.Expr{}, sentinels: map[*ast.CallExpr]string{}}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 {
					continue
				}
				if g.Tok == token.CONST {
					o.consts[vs.Names[0].Name] = vs.Values[0]
				} else if c, ok := vs.Values[0].(*ast.CallExpr); ok {
					o.sentinels[c] = vs.Names[0].Name
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				o.call(c)
			}
			return true
		})
		for _, s := range o.sites {
			enc.Encode(s)
		}
	}
}
