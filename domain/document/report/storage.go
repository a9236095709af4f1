package report

// storage prints a controlled-discharge run's storage design beside its
// specification (design-tool.md section 2, controlled discharge dialog;
// docs/rainfall.md section 11): the channel it is designed in, the
// controlled outflow, the orifice, the critical storm and what the channel
// stores in it. The figures are the server's own calculation of the run
// (design.Results.Controlled); a run without controlled discharge prints
// nothing.
func (w *writer) storage(run Run) {
	c := run.Results.Controlled
	if c == nil {
		return
	}
	n := w.num
	orifice := w.tr("documents.storage.noOrifice")
	if c.Restricted {
		orifice = n.u(c.OrificeDiameterMM, 1, "mm")
	}
	rain, unit, decimals := w.rainfall(c.CriticalRainfallMMH)
	w.d.Subheading(w.tr("documents.storage.title"))
	if c.Flooded {
		w.d.Warning(w.tr("documents.storage.flooded"))
	}
	w.d.KeyValues([][2]string{
		{w.tr("documents.storage.channel"), c.ChannelName},
		{w.tr("documents.storage.controlled"), n.u(c.ControlledOutflowLS, 1, "l/s")},
		{w.tr("documents.storage.orifice"), orifice},
		{w.tr("documents.storage.criticalDuration"), n.u(c.CriticalDurationMin, 0, "min")},
		{w.tr("documents.storage.criticalRainfall"), n.u(rain, decimals, unit)},
		{w.tr("documents.spec.storageVolume"), n.u(c.StorageVolumeM3, 3, "m³")},
		{w.tr("documents.spec.storageCapacity"), n.u(c.ChannelCapacityM3, 3, "m³")},
		{w.tr("documents.spec.criticalWaterDepth"), n.u(c.MaxDepthMM, 1, "mm")},
		{w.tr("documents.spec.criticalFreeboard"), n.u(1000*c.MinimumFreeBoardM, 0, "mm")},
	})
}
