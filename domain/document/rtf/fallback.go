package rtf

import "unicode/utf8"

// decodeRune reads one character; a byte that does not start valid UTF-8
// is U+FFFD, as Go's range over a string reads it.
func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

// fallback is the ASCII character a reader without Unicode shows for r.
// It must not be a digit (it would extend \uN's number), a space (it would
// be read as the control word's delimiter) or "\", "{", "}".
func fallback(r rune) byte {
	if b, ok := fallbacks[r]; ok {
		return b
	}
	return '?'
}

// fallbacks maps Latin letters with diacritics to the bare letter, Cyrillic
// to a one-letter transliteration and typographic punctuation to its plain
// ASCII cousin.
var fallbacks = func() map[rune]byte {
	m := map[rune]byte{
		'\u00a0': '_', // no-break space: a space cannot be a fallback
		'\u00ab': '"', '\u00bb': '"', '\u201c': '"', '\u201d': '"', '\u201e': '"',
		'\u2018': '\'', '\u2019': '\'', '\u201a': '\'', '\u2032': '\'', '\u2033': '"',
		'\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-',
		'\u2026': '.', '\u00b7': '.', '\u2022': '*', '\u00d7': 'x', '\u00f7': '/',
		'\u00b1': '+', '\u2264': '<', '\u2265': '>', '\u2248': '~', '\u20ac': 'E',
		'\u00a3': 'L', '\u00b0': 'o', '\u00b5': 'u', '\u03bc': 'u', '\u00a7': 'S',
	}
	// Pairs of a character and its fallback.
	pairs := []rune(letterFallbacks)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = byte(pairs[i+1])
	}
	return m
}()

// letterFallbacks lists pairs: a letter, then its ASCII fallback.
const letterFallbacks = "ÀAÁAÂAÃAÄAÅAÆAÇCÈEÉEÊEËEÌIÍIÎIÏIÐDÑNÒOÓOÔOÕOÖOØOÙUÚUÛUÜUÝYÞT" +
	"ßsàaáaâaãaäaåaæaçcèeéeêeëeìiíiîiïiðdñnòoóoôoõoöoøoùuúuûuüuýy" +
	"þtÿyĀAāaĂAăaĄAąaĆCćcĈCĉcĊCċcČCčcĎDďdĐDđdĒEēeĔEĕeĖEėeĘEęeĚEěe" +
	"ĜGĝgĞGğgĠGġgĢGģgĤHĥhĦHħhĨIĩiĪIīiĬIĭiĮIįiİIıiĴJĵjĶKķkĸkĹLĺlĻL" +
	"ļlĽLľlĿLŀlŁLłlŃNńnŅNņnŇNňnŉnŊNŋnŌOōoŎOŏoŐOőoŒOœoŔRŕrŖRŗrŘRřr" +
	"ŚSśsŜSŝsŞSşsŠSšsŢTţtŤTťtŦTŧtŨUũuŪUūuŬUŭuŮUůuŰUűuŲUųuŴWŵwŶYŷy" +
	"ŸYŹZźzŻZżzŽZžzſsƒfƠOơoƯUưuǍAǎaǏIǐiǑOǒoǓUǔuǕUǖuǗUǘuǙUǚuǛUǜuǞA" +
	"ǟaǠAǡaǦGǧgǨKǩkǪOǫoǬOǭoǰjǴGǵgǸNǹnǺAǻaȀAȁaȂAȃaȄEȅeȆEȇeȈIȉiȊIȋi" +
	"ȌOȍoȎOȏoȐRȑrȒRȓrȔUȕuȖUȗuȘSșsȚTțtȞHȟhȦAȧaȨEȩeȪOȫoȬOȭoȮOȯoȰOȱo" +
	"ȲYȳyЀEЁEЂDЃGЄEЅZІIЇIЈJЉLЊNЋCЌKЍIЎUЏDАAБBВVГGДDЕEЖZЗZИIЙJКKЛL" +
	"МMНNОOПPРRСSТTУUФFХHЦCЧCШSЩSЪAЫYЭEЮUЯAаaбbвvгgдdеeжzзzиiйjкk" +
	"лlмmнnоoпpрrсsтtуuфfхhцcчcшsщsъaыyэeюuяaѐeёeђdѓgєeѕzіiїiјjљl" +
	"њnћcќkѝiўuџd"
