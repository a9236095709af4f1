package rainfall

// Named places of the United Kingdom with approximate WGS84 positions (to
// about 1 km), compiled for this package from general knowledge. They
// name the nearest place in an answer and, on the remote islands, stand in
// for gauged catchments in the land check. The Region is the FSR region the
// place is in, which the tests hold the region outline to.
type town struct {
	name     string
	lat, lon float64
	region   Region
}

const (
	ew = EnglandWales
	sc = Scotland
	ni = NorthernIreland
)

var towns = []town{
	// England
	{"London", 51.51, -0.13, ew}, {"Birmingham", 52.48, -1.90, ew}, {"Manchester", 53.48, -2.24, ew},
	{"Liverpool", 53.41, -2.98, ew}, {"Leeds", 53.80, -1.55, ew}, {"Sheffield", 53.38, -1.47, ew},
	{"Bristol", 51.45, -2.59, ew}, {"Newcastle upon Tyne", 54.97, -1.61, ew}, {"Nottingham", 52.95, -1.15, ew},
	{"Leicester", 52.64, -1.13, ew}, {"Coventry", 52.41, -1.51, ew}, {"Bradford", 53.79, -1.75, ew},
	{"Kingston upon Hull", 53.74, -0.33, ew}, {"Stoke-on-Trent", 53.00, -2.18, ew}, {"Wolverhampton", 52.59, -2.13, ew},
	{"Derby", 52.92, -1.48, ew}, {"Plymouth", 50.38, -4.14, ew}, {"Southampton", 50.90, -1.40, ew},
	{"Portsmouth", 50.80, -1.09, ew}, {"Reading", 51.45, -0.97, ew}, {"Northampton", 52.24, -0.90, ew},
	{"Luton", 51.88, -0.42, ew}, {"Milton Keynes", 52.04, -0.76, ew}, {"Oxford", 51.75, -1.26, ew},
	{"Cambridge", 52.21, 0.12, ew}, {"Norwich", 52.63, 1.30, ew}, {"Ipswich", 52.06, 1.16, ew},
	{"Colchester", 51.89, 0.90, ew}, {"Chelmsford", 51.74, 0.47, ew}, {"Southend-on-Sea", 51.54, 0.71, ew},
	{"Canterbury", 51.28, 1.08, ew}, {"Dover", 51.13, 1.31, ew}, {"Maidstone", 51.27, 0.52, ew},
	{"Brighton", 50.83, -0.14, ew}, {"Eastbourne", 50.77, 0.28, ew}, {"Hastings", 50.86, 0.57, ew},
	{"Guildford", 51.24, -0.57, ew}, {"Crawley", 51.11, -0.19, ew}, {"Winchester", 51.06, -1.31, ew},
	{"Salisbury", 51.07, -1.79, ew}, {"Bournemouth", 50.72, -1.88, ew}, {"Poole", 50.72, -1.98, ew},
	{"Dorchester", 50.71, -2.44, ew}, {"Weymouth", 50.61, -2.45, ew}, {"Exeter", 50.72, -3.53, ew},
	{"Torquay", 50.46, -3.53, ew}, {"Barnstaple", 51.08, -4.06, ew}, {"Truro", 50.26, -5.05, ew},
	{"Penzance", 50.12, -5.54, ew}, {"Falmouth", 50.15, -5.07, ew}, {"Newquay", 50.41, -5.08, ew},
	{"Bodmin", 50.47, -4.72, ew}, {"Taunton", 51.02, -3.10, ew}, {"Yeovil", 50.94, -2.63, ew},
	{"Bath", 51.38, -2.36, ew}, {"Swindon", 51.56, -1.78, ew}, {"Gloucester", 51.86, -2.24, ew},
	{"Cheltenham", 51.90, -2.08, ew}, {"Worcester", 52.19, -2.22, ew}, {"Hereford", 52.06, -2.72, ew},
	{"Shrewsbury", 52.71, -2.75, ew}, {"Telford", 52.68, -2.45, ew}, {"Stafford", 52.81, -2.12, ew},
	{"Lichfield", 52.68, -1.83, ew}, {"Chester", 53.19, -2.89, ew}, {"Crewe", 53.10, -2.44, ew},
	{"Warrington", 53.39, -2.59, ew}, {"Wigan", 53.55, -2.63, ew}, {"Preston", 53.76, -2.70, ew},
	{"Blackpool", 53.82, -3.05, ew}, {"Blackburn", 53.75, -2.48, ew}, {"Burnley", 53.79, -2.24, ew},
	{"Bolton", 53.58, -2.43, ew}, {"Stockport", 53.41, -2.16, ew}, {"Altrincham", 53.39, -2.35, ew},
	{"Lancaster", 54.05, -2.80, ew}, {"Kendal", 54.33, -2.75, ew}, {"Carlisle", 54.89, -2.93, ew},
	{"Keswick", 54.60, -3.13, ew}, {"Workington", 54.64, -3.55, ew}, {"Whitehaven", 54.55, -3.59, ew},
	{"Barrow-in-Furness", 54.11, -3.23, ew}, {"Penrith", 54.66, -2.75, ew}, {"Durham", 54.78, -1.57, ew},
	{"Sunderland", 54.91, -1.38, ew}, {"Middlesbrough", 54.58, -1.23, ew}, {"Darlington", 54.52, -1.55, ew},
	{"Hartlepool", 54.69, -1.21, ew}, {"Scarborough", 54.28, -0.40, ew}, {"Whitby", 54.49, -0.61, ew},
	{"York", 53.96, -1.08, ew}, {"Harrogate", 53.99, -1.54, ew}, {"Huddersfield", 53.65, -1.78, ew},
	{"Wakefield", 53.68, -1.50, ew}, {"Doncaster", 53.52, -1.13, ew}, {"Barnsley", 53.55, -1.48, ew},
	{"Rotherham", 53.43, -1.36, ew}, {"Lincoln", 53.23, -0.54, ew}, {"Grimsby", 53.57, -0.08, ew},
	{"Scunthorpe", 53.59, -0.65, ew}, {"Boston", 52.98, -0.03, ew}, {"Skegness", 53.14, 0.34, ew},
	{"Peterborough", 52.57, -0.24, ew}, {"King's Lynn", 52.75, 0.40, ew}, {"Great Yarmouth", 52.61, 1.73, ew},
	{"Lowestoft", 52.48, 1.75, ew}, {"Bury St Edmunds", 52.25, 0.71, ew}, {"Bedford", 52.14, -0.47, ew},
	{"St Albans", 51.75, -0.34, ew}, {"Watford", 51.66, -0.40, ew}, {"Slough", 51.51, -0.59, ew},
	{"High Wycombe", 51.63, -0.75, ew}, {"Basingstoke", 51.27, -1.09, ew}, {"Newbury", 51.40, -1.32, ew},
	{"Banbury", 52.06, -1.34, ew}, {"Stratford-upon-Avon", 52.19, -1.71, ew}, {"Kettering", 52.40, -0.73, ew},
	{"Grantham", 52.91, -0.64, ew}, {"Mansfield", 53.14, -1.20, ew}, {"Chesterfield", 53.24, -1.42, ew},
	{"Buxton", 53.26, -1.91, ew}, {"Macclesfield", 53.26, -2.13, ew}, {"Berwick-upon-Tweed", 55.77, -2.00, ew},
	{"Hexham", 54.97, -2.10, ew}, {"Alnwick", 55.41, -1.71, ew}, {"Morpeth", 55.17, -1.69, ew},
	{"Ashford", 51.15, 0.87, ew}, {"Margate", 51.39, 1.38, ew}, {"Folkestone", 51.08, 1.17, ew},
	{"Tunbridge Wells", 51.13, 0.26, ew}, {"Chichester", 50.84, -0.78, ew}, {"Worthing", 50.82, -0.37, ew},
	{"Newport, Isle of Wight", 50.70, -1.29, ew}, {"Hugh Town, Isles of Scilly", 49.91, -6.31, ew},
	{"Meldreth", 52.10, 0.01, ew}, {"Cromer", 52.93, 1.30, ew},
	// Wales
	{"Cardiff", 51.48, -3.18, ew}, {"Swansea", 51.62, -3.94, ew}, {"Newport", 51.59, -3.00, ew},
	{"Wrexham", 53.05, -2.99, ew}, {"Bangor, Gwynedd", 53.23, -4.13, ew}, {"Aberystwyth", 52.41, -4.08, ew},
	{"Carmarthen", 51.86, -4.31, ew}, {"Haverfordwest", 51.80, -4.97, ew}, {"Pembroke", 51.68, -4.92, ew},
	{"Llandudno", 53.32, -3.83, ew}, {"Holyhead", 53.31, -4.63, ew}, {"Caernarfon", 53.14, -4.27, ew},
	{"Brecon", 51.95, -3.39, ew}, {"Merthyr Tydfil", 51.75, -3.38, ew}, {"Bridgend", 51.50, -3.58, ew},
	{"Llandrindod Wells", 52.24, -3.38, ew}, {"Newtown", 52.51, -3.31, ew}, {"Dolgellau", 52.74, -3.88, ew},
	{"Rhyl", 53.32, -3.49, ew}, {"Abergavenny", 51.82, -3.02, ew}, {"Pontypridd", 51.60, -3.34, ew},
	{"Cardigan", 52.08, -4.66, ew}, {"Machynlleth", 52.59, -3.85, ew}, {"Bala", 52.91, -3.60, ew},
	{"Pwllheli", 52.89, -4.42, ew}, {"St Davids", 51.88, -5.27, ew},
	// Scotland
	{"Edinburgh", 55.95, -3.19, sc}, {"Glasgow", 55.86, -4.25, sc}, {"Aberdeen", 57.15, -2.10, sc},
	{"Dundee", 56.46, -2.97, sc}, {"Inverness", 57.48, -4.22, sc}, {"Perth", 56.40, -3.43, sc},
	{"Stirling", 56.12, -3.94, sc}, {"Falkirk", 56.00, -3.78, sc}, {"Paisley", 55.85, -4.42, sc},
	{"Kilmarnock", 55.61, -4.50, sc}, {"Ayr", 55.46, -4.63, sc}, {"Dumfries", 55.07, -3.61, sc},
	{"Stranraer", 54.90, -5.02, sc}, {"Hawick", 55.42, -2.79, sc}, {"Galashiels", 55.62, -2.81, sc},
	{"Kelso", 55.60, -2.43, sc}, {"Peebles", 55.65, -3.19, sc}, {"Lanark", 55.67, -3.78, sc},
	{"Oban", 56.41, -5.47, sc}, {"Fort William", 56.82, -5.11, sc}, {"Campbeltown", 55.43, -5.60, sc},
	{"Dunoon", 55.95, -4.93, sc}, {"Greenock", 55.95, -4.76, sc}, {"Kirkcaldy", 56.11, -3.16, sc},
	{"Dunfermline", 56.07, -3.45, sc}, {"St Andrews", 56.34, -2.80, sc}, {"Arbroath", 56.56, -2.59, sc},
	{"Montrose", 56.71, -2.47, sc}, {"Stonehaven", 56.96, -2.21, sc}, {"Peterhead", 57.51, -1.78, sc},
	{"Fraserburgh", 57.69, -2.01, sc}, {"Elgin", 57.65, -3.32, sc}, {"Nairn", 57.59, -3.87, sc},
	{"Aviemore", 57.19, -3.83, sc}, {"Pitlochry", 56.70, -3.73, sc}, {"Crieff", 56.37, -3.84, sc},
	{"Callander", 56.24, -4.21, sc}, {"Dingwall", 57.60, -4.43, sc}, {"Ullapool", 57.90, -5.16, sc},
	{"Thurso", 58.59, -3.52, sc}, {"Wick", 58.44, -3.09, sc}, {"Portree", 57.41, -6.19, sc},
	{"Stornoway", 58.21, -6.39, sc}, {"Kirkwall", 58.98, -2.96, sc}, {"Stromness", 58.96, -3.30, sc},
	{"Pierowall, Westray", 59.32, -2.98, sc}, {"Kettletoft, Sanday", 59.23, -2.60, sc},
	{"Lerwick", 60.15, -1.15, sc}, {"Brae", 60.40, -1.35, sc}, {"Baltasound", 60.76, -0.86, sc},
	{"Tobermory", 56.62, -6.07, sc}, {"Mallaig", 57.00, -5.83, sc}, {"Braemar", 57.01, -3.40, sc},
	{"Golspie", 57.97, -3.98, sc}, {"Lairg", 58.02, -4.40, sc}, {"Kyle of Lochalsh", 57.28, -5.71, sc},
	{"Lochgilphead", 56.04, -5.43, sc}, {"Inveraray", 56.23, -5.07, sc}, {"Ballater", 57.05, -3.04, sc},
	{"Huntly", 57.45, -2.78, sc}, {"Brodick", 55.58, -5.15, sc}, {"Bowmore", 55.76, -6.29, sc},
	{"Balivanich", 57.47, -7.38, sc}, {"Castlebay", 56.95, -7.49, sc}, {"Tarbert, Harris", 57.90, -6.80, sc},
	{"Gretna", 55.00, -3.06, sc}, {"Newton Stewart", 54.96, -4.48, sc}, {"Kirkcudbright", 54.84, -4.05, sc},
	{"Durness", 58.57, -4.75, sc}, {"Lochinver", 58.15, -5.24, sc}, {"Tongue", 58.48, -4.42, sc},
	{"Gairloch", 57.73, -5.69, sc}, {"Kilchoan", 56.69, -6.10, sc}, {"Eyemouth", 55.87, -2.09, sc},
	// Northern Ireland
	{"Belfast", 54.60, -5.93, ni}, {"Derry~Londonderry", 55.00, -7.32, ni}, {"Newry", 54.18, -6.34, ni},
	{"Armagh", 54.35, -6.65, ni}, {"Lisburn", 54.52, -6.04, ni}, {"Bangor, County Down", 54.66, -5.67, ni},
	{"Newtownards", 54.59, -5.69, ni}, {"Ballymena", 54.86, -6.28, ni}, {"Coleraine", 55.13, -6.67, ni},
	{"Omagh", 54.60, -7.30, ni}, {"Enniskillen", 54.35, -7.64, ni}, {"Dungannon", 54.50, -6.77, ni},
	{"Portadown", 54.42, -6.44, ni}, {"Larne", 54.85, -5.82, ni}, {"Downpatrick", 54.33, -5.72, ni},
	{"Strabane", 54.83, -7.46, ni}, {"Cookstown", 54.64, -6.74, ni}, {"Ballycastle", 55.20, -6.24, ni},
	{"Newcastle, County Down", 54.21, -5.89, ni}, {"Antrim", 54.72, -6.21, ni},
}

// nearestTown returns the named place nearest a point and its distance.
func nearestTown(lat, lon float64) (town, float64) { return nearestIn(towns, lat, lon) }

func nearestIn(ts []town, lat, lon float64) (town, float64) {
	best, bestKm := ts[0], kmBetween(lat, lon, ts[0].lat, ts[0].lon)
	for _, t := range ts[1:] {
		if d := kmBetween(lat, lon, t.lat, t.lon); d < bestKm {
			best, bestKm = t, d
		}
	}
	return best, bestKm
}
