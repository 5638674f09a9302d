package workload

// Defaults of the models' parameters, in one place: the model descriptors
// (models.go), from which the flags of `synth` and the keys of a sweep
// plan's [[workload]] tables (model/sweep) derive, take them from here.
const (
	// Rigid jobs (synth workload).
	DefaultMachine   = "flat:128"
	DefaultSize      = "uniform"
	DefaultService   = ServiceExp
	DefaultMean      = 10.0 // Chu's EXTM
	DefaultCV        = 4.0  // Mohapatra, Yu & Das 1995
	DefaultH2Alpha   = 0.95 // Mohapatra, Yu & Das 1995
	DefaultH2        = H2Alpha
	DefaultCoupling  = CouplingDependent
	DefaultEstimates = EstimatesExact
	DefaultArrivals  = ArrivalsPoisson
	DefaultJobs      = 50000 // Chu: 50,000 per run
	DefaultSeed      = 1

	// Malleable jobs (synth malleable; Guha 1995).
	DefaultMalleableProcs = 100
	DefaultWorkMean       = 1000.0
	DefaultWorkCV         = 5.0
	DefaultEff            = "1-99"
	DefaultEffDist        = EffUniform
	DefaultMalleableJobs  = 500000

	// Lublin & Feitelson 2003 (synth lublin).
	DefaultLublinProcs = 128
	DefaultLublinJobs  = 10000
)
