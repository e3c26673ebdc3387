// Package weight holds the tests of what the core costs a program that
// imports it (docs/performance.md, "What the core costs a program"): the
// modules it links, and the work its own packages do at start-up.
package weight
