package workload

// The machine families the tests generate for, registered
// (policy.RegisterFamily); a program registers them by importing
// model/catalog.
import (
	_ "github.com/schedlab/schedlab/model/cube"
	_ "github.com/schedlab/schedlab/model/flat"
	_ "github.com/schedlab/schedlab/model/mesh"
)
