package usecase

import (
	"draindesign/domain/design"
	"draindesign/domain/fault"
)

// MsgAdvancedModeOnly refuses an advanced design to a user without the
// advanced-mode right.
const MsgAdvancedModeOnly = "Advanced mode (hand-picked channels, cutting, drilling, the in-situ concrete channel) is not available for your account"

// MayCalculate applies the calculation's access rule (design-tool.md
// section 6): any signed-in user may calculate, but an advanced design, with
// channels picked by hand, comes with the advanced-mode right only. The
// client never offers advanced mode to others; this keeps a hand-made
// request from getting round it.
func MayCalculate(a Actor, reqs ...*design.Request) error {
	if err := signedIn(a); err != nil {
		return err
	}
	for _, r := range reqs {
		if r != nil && r.Advanced && !a.User.Flags().HasAdvancedMode {
			return fault.New(fault.Forbidden, "%s", MsgAdvancedModeOnly)
		}
	}
	return nil
}
