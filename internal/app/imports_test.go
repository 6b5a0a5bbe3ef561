package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Imports flow one way:
//
//	main, cmd/*, internal/load → internal/app → bot → agent → skills → agent's core → library → integrations/*
//
// config, prompts and ru are leaves: anyone may import them and they import nothing of the
// project. An import may skip layers downwards; nothing imports back up. Besides:
//   - the commands and the load driver reach the bot only through internal/app, tests
//     included (one constructor of the application);
//   - the agent's core is what every skill may use: api (what the agent and the front ends say to
//     each other), understand, plan, skill, recipe, phrase,
//     passages, buttons, dialog, executor, facts, render, postcheck, md, chart, reconcile (the act of reconciliation), anon (the anonymiser before the LLM). Every other package under
//     agent/ is a skill
//     (or a skill's own subpackage, such as agent/ledger/runner) and is registered by a row of
//     the agent's table: a skill imports no other skill, and the core imports no skill. A new
//     skill package is covered by these rules without a line here;
//   - library (text extraction and retrieval) imports no agent package;
//   - an integration imports no other integration (its own subpackages aside);
//   - internal/testdocs, internal/testnet and any other internal/ package are test support:
//     only tests, the load driver and other test support import them;
//   - the narrower rules of .ci/imports.sh, for non-test code: the bot imports no integration,
//     config or prompts (it talks to integrations through the agent); agent and agent/* do not
//     import config; integrations import neither config nor prompts.
//
// knownViolations are imports that break these rules today and are someone else's to fix; the
// test fails on any other, and on a known one that is gone (so the list only shrinks). None are
// known: add an entry here only with the issue that will remove it.
var knownViolations = []string{}

// pkg is what `go list -json` says of a package of the module.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

func TestImportDirection(t *testing.T) {
	mod, pkgs := listModule(t)
	rel := func(path string) (string, bool) {
		if path == mod {
			return "", true
		}
		r, ok := strings.CutPrefix(path, mod+"/")
		return r, ok
	}
	var got []string
	for _, p := range pkgs {
		from, _ := rel(p.ImportPath)
		check := func(imports []string, test bool) {
			for _, imp := range imports {
				to, ours := rel(imp)
				if !ours {
					continue // the standard library and modules
				}
				if to == from {
					continue // an external test package importing the package it tests
				}
				if why := forbidden(from, to, test); why != "" {
					got = append(got, fmt.Sprintf("%s → %s: %s", display(from), display(to), why))
				}
			}
		}
		check(p.Imports, false)
		check(slices.Concat(p.TestImports, p.XTestImports), true)
	}
	slices.Sort(got)
	got = slices.Compact(got)
	for _, v := range got {
		if !slices.Contains(knownViolations, v) {
			t.Errorf("forbidden import: %s", v)
		}
	}
	for _, v := range knownViolations {
		if !slices.Contains(got, v) {
			t.Errorf("known violation no longer occurs, remove it from knownViolations: %s", v)
		}
	}
	if t.Failed() {
		t.Logf("imports flow main, cmd/*, internal/load → internal/app → bot → agent → skills → agent's core → library → integrations/*; config, prompts and ru are leaves (see the comment above knownViolations)")
	}
}

// The rules themselves, on paths relative to the module: a few imports that must pass and a
// few that must not.
func TestForbidden(t *testing.T) {
	tests := []struct {
		from, to string
		test     bool
		want     bool // forbidden
	}{
		{"", "internal/app", false, false},
		{"", "agent", false, false},
		{"", "bot", false, true},
		{"cmd/finbot-load", "internal/load", false, false},
		{"cmd/finbot-load", "bot", false, true},
		{"agent", "internal/testdocs", true, false},
		{"agent", "internal/testdocs", false, true},
		{"internal/load", "internal/app", false, false},
		{"internal/load", "bot", false, true},
		{"internal/load", "bot", true, true},
		{"internal/load", "internal/testdocs", false, false},
		{"internal/app", "bot", false, false},
		{"internal/app", "internal/load", false, true},
		{"bot", "internal/app", false, true},
		{"bot", "agent", false, false},
		{"bot", "bot/tgmd", false, false},
		{"bot", "integrations/history", false, true},
		{"bot", "integrations/history", true, false},
		{"bot", "config", false, true},
		{"bot", "ru", false, false},
		{"bot", "internal/testnet", false, true},
		{"bot", "internal/testnet", true, false},
		{"agent", "bot", false, true},
		{"agent", "agent/plan", false, false},
		{"agent", "config", false, true},
		{"agent/plan", "agent/ledger/runner", false, true},
		{"agent/understand", "agent/ledger", false, true},
		{"agent/understand", "agent/recipe", false, false},
		{"agent/ledger", "agent/ledger/runner", false, false},
		{"agent/ledger/runner", "agent/recipe", false, false},
		{"agent/kb", "agent/documents", false, true},
		{"agent/kb", "agent/documents", true, true},
		{"agent/ledger", "agent/rates", false, true},
		{"agent/ledger", "agent/understand", false, false},
		{"agent/newskill", "agent/ledger", false, true},
		{"agent", "agent/newskill", false, false},
		{"agent/understand", "library", false, false},
		{"library", "agent/understand", false, true},
		{"library", "integrations/docstore", false, false},
		{"integrations/docstore", "library", false, true},
		{"agent/plan", "agent", false, true},
		{"agent/plan", "prompts", false, false},
		{"agent/understand", "ru", false, false},
		{"ru", "agent/plan", false, true},
		{"integrations/onec", "integrations/onec/ledgergen", true, false},
		{"integrations/onec/onectest", "integrations/onec", false, false},
		{"integrations/docstore", "integrations/llm", false, true},
		{"integrations/llm", "agent/plan", false, true},
		{"integrations/llm", "prompts", false, true},
		{"config", "prompts", false, true},
		{"ru", "config", false, true},
		{"prompts", "ru", false, true},
	}
	for _, tt := range tests {
		why := forbidden(tt.from, tt.to, tt.test)
		if (why != "") != tt.want {
			t.Errorf("forbidden(%q, %q, test %v) = %q, want forbidden: %v", tt.from, tt.to, tt.test, why, tt.want)
		}
	}
}

// layer ranks a package: an import goes to a lower rank, or to a leaf.
func layer(p string) int {
	switch {
	case isLeaf(p):
		return 0
	case p == "" || under(p, "cmd"):
		return 9
	case under(p, "internal/load"):
		return 8
	case under(p, "internal/app"):
		return 7
	case isTestSupport(p):
		return 6 // below app and the drivers, and only imported from tests
	case under(p, "bot"):
		return 6
	case p == "agent":
		return 5
	case skill(p) != "":
		return 4
	case under(p, "agent"):
		return 3 // the agent's core
	case under(p, "library"):
		return 2
	case under(p, "integrations"):
		return 1
	}
	return 9 // a new top-level package: it has to find its place here before others import it
}

// core are the agent's shared packages: the vocabulary, the planner, the answer LLM and the
// skills' interface. Every other package under agent/ is a skill.
var core = []string{"anon", "api", "understand", "plan", "skill", "recipe", "phrase", "passages", "buttons", "dialog", "executor", "facts", "render", "postcheck", "md", "chart", "reconcile"}

// skill is the skill p belongs to ("agent/ledger" for agent/ledger/runner), "" when p is not
// a skill's.
func skill(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if len(parts) < 2 || parts[0] != "agent" || slices.Contains(core, parts[1]) {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

func isLeaf(p string) bool {
	return under(p, "config") || under(p, "prompts") || under(p, "ru")
}

func isTestSupport(p string) bool {
	return under(p, "internal") && !under(p, "internal/app") && !under(p, "internal/load")
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// integration is the integration p belongs to ("integrations/onec" for its subpackages).
func integration(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if len(parts) < 2 || parts[0] != "integrations" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

// forbidden says why from may not import to ("" if it may); test is an import of from's test
// files.
func forbidden(from, to string, test bool) string {
	driver := from == "" || under(from, "cmd") || under(from, "internal/load")
	switch {
	case isLeaf(from):
		return "config, prompts and ru import nothing of the project"
	case isTestSupport(to):
		if test || under(from, "internal/load") || isTestSupport(from) {
			return "" // test support stands beside the layers, for tests
		}
		return "test support is imported only by tests and the load driver"
	case driver && under(to, "bot"):
		return "the commands and the load driver reach the bot through internal/app"
	case isLeaf(to) && !test && under(from, "bot") && under(to, "config"):
		return "the bot does not read the configuration (internal/app hands it its options)"
	case isLeaf(to) && !test && under(from, "bot") && under(to, "prompts"):
		return "the bot has no prompts (the agent does)"
	case isLeaf(to) && !test && under(from, "agent") && under(to, "config"):
		return "the agent does not read the configuration (internal/app hands it its options)"
	case isLeaf(to) && !test && under(from, "integrations") && (under(to, "config") || under(to, "prompts")):
		return "integrations take their options from internal/app and have no prompts"
	case isLeaf(to):
		return ""
	case !test && under(from, "bot") && under(to, "integrations"):
		return "the bot talks to integrations only through the agent"
	case integration(from) != "" && integration(to) != "":
		if integration(from) != integration(to) {
			return "an integration imports no other integration"
		}
		return ""
	case under(from, "bot") && under(to, "bot"), under(from, "library") && under(to, "library"):
		return ""
	case skill(from) != "" && skill(to) != "":
		if skill(from) != skill(to) {
			return "a skill imports no other skill: it asks the agent (skill.Handoff)"
		}
		return "" // a skill's own subpackages
	case layer(from) == 3 && layer(to) == 3:
		return "" // the core's packages use each other
	case layer(from) == 3 && layer(to) == 4:
		return "the agent's core imports no skill"
	case layer(to) >= layer(from):
		return "imports flow main → internal/app → bot → agent → skills → agent's core → library → integrations/*, never back"
	}
	return ""
}

func display(p string) string {
	if p == "" {
		return "main (the module root)"
	}
	return p
}

// listModule runs `go list -json ./...` at the module's root.
func listModule(t *testing.T) (mod string, pkgs []pkg) {
	t.Helper()
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", stderrOf(err))
	}
	mod, dir, ok := strings.Cut(strings.TrimSpace(string(root)), " ")
	if !ok {
		t.Fatalf("go list -m printed %q", root)
	}
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", stderrOf(err))
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list ./... output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list ./... found %d packages; is this the finbot module?", len(pkgs))
	}
	return mod, pkgs
}

func stderrOf(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, ee.Stderr)
	}
	return err
}
