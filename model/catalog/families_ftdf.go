package catalog

import (
	// The fat-tree and dragonfly families (issue 26), registered
	// (policy.RegisterFamily) with their allocators.
	_ "github.com/schedlab/schedlab/model/dragonfly"
	_ "github.com/schedlab/schedlab/model/fattree"
)

func init() {
	refMachines["fattree"] = "fattree:4x4x4"
	refMachines["dragonfly"] = "dragonfly:g=5,a=2,p=2,h=2"
}
