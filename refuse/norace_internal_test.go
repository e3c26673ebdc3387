//go:build !race

package refuse

const raceOn = false
