package reconcile

// formatScan is the layout of a photo or a scan of an act: its recognised words as a PDF's runs.
const formatScan = "scan"
