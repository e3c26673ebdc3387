//go:build race

package refuse

// raceOn: the race detector drops pooled items at random, so pooled
// tables are allocated again from call to call.
const raceOn = true
