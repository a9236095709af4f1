package catalogue

import (
	"fmt"
	"math"
	"strconv"
)

// Discharge settings.
const (
	FreeOutflow             = "free-outflow"
	OutflowInTrashBox       = "outflow-in-trashbox"
	EndCapWithOutletSetting = "end-cap-with-outlet"
	ModificationLastElement = "modification-last-element"
)

// Accessory types (design-tool spec, section 3).
const (
	AccessoryTrashBox         = "trash-box"
	AccessoryAccessBox        = "access-box"
	AccessoryAccessCover      = "access-cover"
	AccessoryEndCap           = "end-cap"
	AccessoryEndCapWithOutlet = "end-cap-with-outlet"
	AccessoryConcreteChamber  = "concrete-chamber"
	AccessoryConnectionPlate  = "connection-plate"
	AccessoryNoAutomatic      = "no-automatic"
)

// PlacedAccessory is an accessory of a run. DistanceM is measured from the
// discharge end (0 is the discharge, the run length the head), as the
// accessory popup places them.
type PlacedAccessory struct {
	Type      string  `json:"type"`
	DistanceM float64 `json:"distance_m"`
	// DischargeLPS chooses a trash box (0: the smallest that fits).
	DischargeLPS float64 `json:"discharge_lps,omitempty"`
	// EndCapID is the article number of an end cap with outlet.
	EndCapID string `json:"end_cap_id,omitempty"`
}

// MaterialRequest is a designed run whose materials are wanted.
type MaterialRequest struct {
	System  string `json:"system"`
	Loading string `json:"loading"`
	Grating string `json:"grating"`
	// Elements as laid by Layout, Candidates or LayoutCut.
	Elements []Element `json:"elements"`
	// Discharge is one of the discharge settings ("" is free outflow).
	Discharge string `json:"discharge"`
	// TrashBoxDischargeLPS chooses the trash box at the discharge (0: the
	// smallest that fits).
	TrashBoxDischargeLPS float64 `json:"trash_box_discharge_lps,omitempty"`
	// EndCapID is the article number of the end cap with outlet.
	EndCapID string `json:"end_cap_id,omitempty"`
	// OrificeDiameterMM is the flow-control orifice plate fitted in that
	// end cap's outlet (controlled discharge); 0 for none. The catalogue
	// has no article for it: it is named on the end cap's line.
	OrificeDiameterMM float64 `json:"orifice_diameter_mm,omitempty"`
	// Drilling of the last element (modification-last-element); nil takes
	// the defaults, or an L channel's preset.
	Drilling    *Drilling         `json:"drilling,omitempty"`
	Accessories []PlacedAccessory `json:"accessories,omitempty"`
}

// MaterialLine is a line of a materials list. Sort orders the lines across
// all lists. Items made on site by others carry no HAN.
type MaterialLine struct {
	HAN         string `json:"HAN"`
	Description string `json:"description"`
	Count       int    `json:"count"`
	Sort        int    `json:"sort"`
	LengthMM    int    `json:"length_mm"`
	// Text is what Description is made of, to write it in another
	// language (Describe).
	Text LineText `json:"text,omitzero"`
}

// Materials are the material lists of a run.
type Materials struct {
	Channel     []MaterialLine `json:"channel"`
	Connectors  []MaterialLine `json:"connectors"`
	Endcaps     []MaterialLine `json:"endcaps"`
	AccessCover []MaterialLine `json:"access_cover"`
	Box         []MaterialLine `json:"box"`
}

func newMaterials() Materials {
	return Materials{Channel: []MaterialLine{}, Connectors: []MaterialLine{}, Endcaps: []MaterialLine{}, AccessCover: []MaterialLine{}, Box: []MaterialLine{}}
}

// lines collects lines of one list, merging equal HAN, description and length.
type lines struct{ list *[]MaterialLine }

// item is an article's line text.
func item(han string) LineText { return LineText{Key: ArticleKey(han)} }

func (l lines) add(han, desc string, text LineText, count, lengthMM int) {
	if count <= 0 {
		return
	}
	for i, x := range *l.list {
		if x.HAN == han && x.Description == desc && x.LengthMM == lengthMM {
			(*l.list)[i].Count += count
			return
		}
	}
	*l.list = append(*l.list, MaterialLine{HAN: han, Description: desc, Count: count, LengthMM: lengthMM, Text: text})
}

func (m *Materials) number() {
	n := 0
	for _, list := range []*[]MaterialLine{&m.Channel, &m.Connectors, &m.Endcaps, &m.AccessCover, &m.Box} {
		for i := range *list {
			n++
			(*list)[i].Sort = n
		}
	}
}

// Materials lists the materials of a designed run: channel elements (whole
// ones and cut pieces on separate lines, the modified last element on its
// own), gratings, connectors (joint sealant or connectors per joint, step
// adaptors per step), end caps (a plain one at the head, the discharge's
// one), trash and access boxes, access covers and concrete chambers.
// Accessories at the discharge that repeat the discharge setting are not
// counted twice. The concrete channel (type M) is built on site: only its
// concrete chambers are listed.
func (c *Catalogue) Materials(req MaterialRequest) (Materials, error) {
	m := newMaterials()
	s, err := c.System(req.System)
	if err != nil {
		return m, err
	}
	if s.ProductType == ProductTypePoint {
		return m, &RequestError{Reason: "point products take PointMaterials"}
	}
	if s.ProductType == ProductTypeConcrete {
		for _, a := range req.Accessories {
			if a.Type != AccessoryConcreteChamber {
				return m, &UnavailableError{What: a.Type, Reason: "the concrete channel takes concrete chambers only"}
			}
			lines{&m.Box}.add("", concreteChamberText, LineText{Key: KeyConcreteChamber}, 1, 0)
		}
		m.number()
		return m, nil
	}
	class := ""
	if len(s.LoadingClasses) > 0 {
		if class, err = s.ResolveLoading(req.Loading); err != nil {
			return m, err
		}
	}
	if len(req.Elements) == 0 {
		return m, &RequestError{Reason: "no channel elements"}
	}
	specs := make([]*ChannelSpec, len(req.Elements))
	for i, e := range req.Elements {
		ch, err := c.Channel(e.Slug)
		if err != nil {
			return m, err
		}
		if ch.System != s.Slug {
			return m, &RequestError{Reason: fmt.Sprintf("channel %s is not of system %s", ch.Slug, s.Slug)}
		}
		if e.LengthMM <= 0 || e.LengthMM > ch.LengthMM {
			return m, &RequestError{Reason: fmt.Sprintf("element %d: length %d mm outside 1..%d", i+1, e.LengthMM, ch.LengthMM)}
		}
		specs[i] = ch
	}
	last := len(specs) - 1
	runMM := 0
	for _, e := range req.Elements {
		runMM += e.LengthMM
	}

	discharge := req.Discharge
	if discharge == "" {
		discharge = FreeOutflow
	}
	// Automatic items at the two ends, unless an accessory takes their place.
	headAuto, dischargeAuto := true, true
	for _, a := range req.Accessories {
		switch {
		case atEnd(a.DistanceM, runMM) && (a.Type == AccessoryNoAutomatic || a.Type == AccessoryEndCap || a.Type == AccessoryEndCapWithOutlet || a.Type == AccessoryTrashBox):
			headAuto = false
		case atEnd(a.DistanceM, 0) && a.Type == AccessoryNoAutomatic:
			dischargeAuto = false
		}
	}

	if headAuto {
		if e := c.plainEndCap(specs[0]); e != nil {
			lines{&m.Endcaps}.add(e.HAN, e.Description, item(e.HAN), 1, 0)
		}
	}

	// Channel elements and the discharge.
	chl := lines{&m.Channel}
	var modified string
	var drilled LineText // the modification's part of the last element's text
	switch discharge {
	case FreeOutflow:
	case OutflowInTrashBox:
		t, err := c.trashBoxFor(specs[last], class, req.TrashBoxDischargeLPS)
		if err != nil {
			return m, err
		}
		lines{&m.Box}.add(t.HAN, t.Description, item(t.HAN), 1, t.LengthMM)
	case EndCapWithOutletSetting:
		e, err := c.outletCap(specs[last], req.EndCapID)
		if err != nil {
			return m, err
		}
		text := item(e.HAN)
		if req.OrificeDiameterMM > 0 {
			text.OrificeDiameterMM = req.OrificeDiameterMM
		}
		lines{&m.Endcaps}.add(e.HAN, e.Description+orificeText(req.OrificeDiameterMM), text, 1, 0)
	case ModificationLastElement:
		if !s.ModificationLastElement {
			return m, &RequestError{Reason: "system " + s.Slug + " offers no modification of the last element"}
		}
		if specs[last].Kind != KindL {
			d := Drilling{Position: DrillBottom, HoleDiameterMM: DefaultDrillDiameterMM, HoleDistanceMM: DefaultDrillDistanceMM}
			if req.Drilling != nil {
				d = *req.Drilling
			}
			modified = fmt.Sprintf(", modified: outlet hole DN %d in the %s, centre %d mm from the end", d.HoleDiameterMM, drillPlace(d.Position), d.HoleDistanceMM)
			drilled = LineText{DrillPosition: drillPosition(d.Position), DrillDiameterMM: d.HoleDiameterMM, DrillDistanceMM: d.HoleDistanceMM}
			if dischargeAuto {
				if e := c.plainEndCap(specs[last]); e != nil {
					lines{&m.Endcaps}.add(e.HAN, e.Description, item(e.HAN), 1, 0)
				}
			}
		}
	default:
		return m, &RequestError{Reason: fmt.Sprintf("discharge setting %q unknown", discharge)}
	}
	var named *ChannelSpec // consecutive elements mostly share a channel
	var designation string
	for i, e := range req.Elements {
		if specs[i] != named {
			designation, _ = s.displayed(specs[i], class)
			named = specs[i]
		}
		desc := designation
		text := LineText{Designation: desc}
		if e.LengthMM != specs[i].LengthMM {
			desc += fmt.Sprintf(", cut to %d mm", e.LengthMM)
			text.CutToMM = e.LengthMM
		}
		if i == last {
			desc += modified
			text.DrillPosition, text.DrillDiameterMM, text.DrillDistanceMM = drilled.DrillPosition, drilled.DrillDiameterMM, drilled.DrillDistanceMM
		}
		chl.add(specs[i].HAN, desc, text, 1, e.LengthMM)
	}
	if err := c.gratingLines(chl, s, req.Grating, class, specs, req.Elements); err != nil {
		return m, err
	}
	c.connectorLines(lines{&m.Connectors}, s, specs, req.Elements)

	// Placed accessories.
	for _, a := range req.Accessories {
		if a.DistanceM < 0 || float64(runMM) < a.DistanceM*1000-0.5 {
			return m, &RequestError{Reason: fmt.Sprintf("%s at %.1f m lies outside the run", a.Type, a.DistanceM)}
		}
		ch := specs[elementAt(req.Elements, runMM-int(math.Round(a.DistanceM*1000)))]
		atDischarge := atEnd(a.DistanceM, 0)
		switch a.Type {
		case AccessoryNoAutomatic:
		case AccessoryTrashBox:
			if atDischarge && discharge == OutflowInTrashBox {
				continue
			}
			t, err := c.trashBoxFor(ch, class, a.DischargeLPS)
			if err != nil {
				return m, err
			}
			lines{&m.Box}.add(t.HAN, t.Description, item(t.HAN), 1, t.LengthMM)
		case AccessoryAccessBox, AccessoryAccessCover:
			u := c.accessUnit(ch, class, a.Type)
			if u == nil {
				return m, &UnavailableError{What: a.Type, Reason: fmt.Sprintf("none for loading %s and channel %s", class, ch.Slug)}
			}
			list := &m.Box
			if a.Type == AccessoryAccessCover {
				list = &m.AccessCover
			}
			lines{list}.add(u.HAN, u.Description, item(u.HAN), 1, u.LengthMM)
		case AccessoryEndCap:
			if atDischarge && discharge == ModificationLastElement {
				continue
			}
			if e := c.plainEndCap(ch); e != nil {
				lines{&m.Endcaps}.add(e.HAN, e.Description, item(e.HAN), 1, 0)
			}
		case AccessoryEndCapWithOutlet:
			if atDischarge && discharge == EndCapWithOutletSetting {
				continue
			}
			e, err := c.outletCap(ch, a.EndCapID)
			if err != nil {
				return m, err
			}
			lines{&m.Endcaps}.add(e.HAN, e.Description, item(e.HAN), 1, 0)
		case AccessoryConcreteChamber:
			if !s.ConcreteChamber(ch.WidthMM) {
				return m, &UnavailableError{What: a.Type, Reason: fmt.Sprintf("not offered for channel %s", ch.Slug)}
			}
			lines{&m.Box}.add("", concreteChamberText, LineText{Key: KeyConcreteChamber}, 1, 0)
		case AccessoryConnectionPlate:
			k := c.connector(ch, ConnectorPlate)
			if k == nil {
				return m, &UnavailableError{What: a.Type, Reason: fmt.Sprintf("none for channel %s", ch.Slug)}
			}
			lines{&m.Connectors}.add(k.HAN, k.Description, item(k.HAN), 1, 0)
		default:
			return m, &RequestError{Reason: fmt.Sprintf("accessory type %q unknown", a.Type)}
		}
	}
	m.number()
	return m, nil
}

const concreteChamberText = "Concrete chamber, cast in situ (by others)"

// orificeText names the flow-control orifice plate on its end cap's line,
// as a cut or a drilling is named on its element's.
func orificeText(diameterMM float64) string {
	if !(diameterMM > 0) {
		return ""
	}
	return fmt.Sprintf(", with flow-control orifice plate Ø %s mm in the outlet (made to order)", strconv.FormatFloat(diameterMM, 'f', -1, 64))
}

func drillPlace(position string) string {
	switch drillPosition(position) {
	case DrillLeftWall:
		return "left wall"
	case DrillRightWall:
		return "right wall"
	}
	return "bottom"
}

// drillPosition is a hole's position as drilled: any but the two walls is
// the bottom.
func drillPosition(position string) string {
	if position == DrillLeftWall || position == DrillRightWall {
		return position
	}
	return DrillBottom
}

// atEnd reports whether a distance (m) lies at an end (mm), within 1 mm.
func atEnd(distanceM float64, endMM int) bool {
	return math.Abs(distanceM*1000-float64(endMM)) < 1
}

// elementAt returns the index of the element at a chainage (mm from the
// head); a joint belongs to the downstream element, the head to the first.
func elementAt(els []Element, chainage int) int {
	for i := len(els) - 1; i >= 0; i-- {
		if chainage >= els[i].StartMM {
			return i
		}
	}
	return 0
}

func (c *Catalogue) outletCap(ch *ChannelSpec, id string) (*EndCap, error) {
	caps := c.outletCaps(ch)
	if len(caps) == 0 {
		return nil, &UnavailableError{What: "end-cap outlet", Reason: "none for channel " + ch.Slug}
	}
	for _, e := range caps {
		if e.HAN == id {
			return e, nil
		}
	}
	return nil, &NotFoundError{Kind: "end cap with outlet", Key: id, In: "channel " + ch.Slug}
}

func (c *Catalogue) accessUnit(ch *ChannelSpec, class, kind string) *AccessUnit {
	for _, u := range c.accessUnits {
		if u.Kind == kind && fitsChannel(u.System, u.Family, u.WidthMM, ch) && contains(u.LoadingClasses, class) {
			return u
		}
	}
	return nil
}

func (c *Catalogue) connector(ch *ChannelSpec, kind string) *Connector {
	for _, k := range c.connectors {
		if k.Kind == kind && k.System == ch.System && k.WidthMM == ch.WidthMM {
			return k
		}
	}
	return nil
}

// gratingLines adds the gratings: per width, enough whole gratings to cover
// the elements of that width.
func (c *Catalogue) gratingLines(l lines, s *System, slug, class string, specs []*ChannelSpec, els []Element) error {
	if !s.Grated {
		return nil
	}
	if slug == "" {
		return &RequestError{Reason: "a grating is required for system " + s.Slug}
	}
	g, err := c.Grating(slug)
	if err != nil {
		return err
	}
	if g.System != s.Slug || !contains(g.LoadingClasses, class) {
		return &NotFoundError{Kind: "grating", Key: slug, In: fmt.Sprintf("system %q at loading %s", s.Slug, class)}
	}
	var widths []int
	length := map[int]int{}
	for i, ch := range specs {
		if g.Family != "" && ch.Family != g.Family {
			return &RequestError{Reason: fmt.Sprintf("grating %s does not fit channel %s", g.Slug, ch.Slug)}
		}
		if _, ok := length[ch.WidthMM]; !ok {
			widths = append(widths, ch.WidthMM)
		}
		length[ch.WidthMM] += els[i].LengthMM
	}
	for _, w := range widths {
		v, ok := g.Variant(w)
		if !ok {
			return &NotFoundError{Kind: "grating width", Key: itoa(w), In: "grating " + g.Slug}
		}
		n := (length[w] + g.LengthMM - 1) / g.LengthMM
		l.add(v.HAN, fmt.Sprintf("%s, %d mm wide, %d mm long", g.Description, w, g.LengthMM),
			LineText{Key: GratingKey(g.Slug), GratingWidthMM: w, GratingLengthMM: g.LengthMM}, n, g.LengthMM)
	}
	return nil
}

// connectorLines adds jointing: a joint connector article per
// JointsPerUnit joints of a width, a step adaptor per step where the system
// has one (otherwise the step is an ordinary joint).
func (c *Catalogue) connectorLines(l lines, s *System, specs []*ChannelSpec, els []Element) {
	joints := map[int]int{}
	steps := map[int]int{}
	var first []*ChannelSpec // the first channel of each width, in run order
	for i := 1; i < len(els); i++ {
		w := specs[i].WidthMM
		if _, ok := joints[w]; !ok {
			first = append(first, specs[i])
			joints[w] = 0
		}
		if els[i].FloorDropMM(els[i-1]) > 0.5 && c.connector(specs[i], ConnectorStep) != nil {
			steps[w]++
		} else {
			joints[w]++
		}
	}
	for _, ch := range first {
		w := ch.WidthMM
		if k := c.connector(ch, ConnectorJoint); k != nil {
			l.add(k.HAN, k.Description, item(k.HAN), (joints[w]+k.JointsPerUnit-1)/k.JointsPerUnit, 0)
		}
		if k := c.connector(ch, ConnectorStep); k != nil {
			l.add(k.HAN, k.Description, item(k.HAN), steps[w], 0)
		}
	}
}

// PointMaterials lists a point product: the gully body with the chosen
// outlet diameter and, if asked and valid for it, the extension hat.
func (c *Catalogue) PointMaterials(system string, pipeDiameterMM int, extensionHat bool) (Materials, error) {
	m := newMaterials()
	g, err := c.Gully(system)
	if err != nil {
		return m, err
	}
	for _, o := range g.Outlets {
		if o.DiameterMM != pipeDiameterMM {
			continue
		}
		if extensionHat && !o.ExtensionHat {
			return m, &UnavailableError{What: "extension hat", Reason: fmt.Sprintf("not with the DN %d outlet of %s", pipeDiameterMM, system)}
		}
		lines{&m.Channel}.add(o.HAN, o.Description, item(o.HAN), 1, 0)
		if extensionHat {
			lines{&m.Channel}.add(g.ExtensionHat.HAN, g.ExtensionHat.Description, item(g.ExtensionHat.HAN), 1, 0)
		}
		m.number()
		return m, nil
	}
	return m, &NotFoundError{Kind: "pipe diameter", Key: itoa(pipeDiameterMM), In: inSystem(system)}
}
