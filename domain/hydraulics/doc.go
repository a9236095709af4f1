// Package hydraulics is the hydraulic engine of draindesign: steady
// spatially varied flow in linear drainage channels (channel runs with
// gratings to EN 1433) fed by lateral rainfall inflow and point inflows, and
// the capacity of point drainage products (gullies).
//
// Two methods are offered. GVF integrates the momentum equation of spatially
// varied flow with lateral inflow along the whole run, with Manning friction,
// internal critical sections, supercritical reaches and hydraulic jumps. HRW
// is the closed-form momentum approximation published by HR Wallingford for
// linear drainage channels, with friction folded in through an effective
// slope. Both are documented, with their sources and validation results, in
// docs/hydraulics.md.
//
// Units are SI throughout the inputs (m, m³/s, m³/s per m), except where a
// name says otherwise (MM for millimetres, LPS for litres per second, MMH for
// mm/h). Results carry the units of the specification's Results entity.
//
// Chainage x is measured from the upstream head of the run (x = 0) to the
// discharge end (x = L). The package is pure Go with the standard library
// only; it does no I/O.
package hydraulics
