// Package help lists the help topics of the spec: their file names (the
// stable ids of the help pages and of their texts in every language), their
// English titles, and the screen each explains, so the top bar's help button
// can open the topic of the screen in front of the user.
package help

// Topic is one entry of the help page's list.
type Topic struct {
	File  string // stable id: web/help/<lang>/<File>.md, /static/help/<lang>/<File>.html
	Title string // English title; screens show the catalogue's help.topic.<File>
	Type  string // "T" text, "V" video (the spec's help_type)
}

// Topics are the spec's text topics, in its order.
var Topics = []Topic{
	{"about", "About the software", "T"},
	{"design-method", "Design method", "T"},
	{"menu-bar", "Menu bar functions", "T"},
	{"managing-projects", "Managing projects", "T"},
	{"project-information", "Project information", "T"},
	{"design-functions", "Design functions", "T"},
	{"design-parameters", "Design parameters window", "T"},
	{"irregular-catchment", "Irregular catchment", "T"},
	{"rainfall-map", "Rainfall map data (UK)", "T"},
	{"point-inflows", "Point inflows", "T"},
	{"accessories", "Adding accessories", "T"},
	{"access-points", "Access points", "T"},
	{"advanced-mode", "Advanced mode", "T"},
	{"design-specification", "Design specification window", "T"},
	{"system-information", "System information", "T"},
	{"slot-channel", "Slot channel with high capacity", "T"},
	{"system-installation", "System installation", "T"},
	{"design-support", "Design support", "T"},
	{"allow-flooding", "Allow flooding", "T"},
}

// Find is the topic with that file name.
func Find(file string) (Topic, bool) {
	for _, t := range Topics {
		if t.File == file {
			return t, true
		}
	}
	return Topic{}, false
}
