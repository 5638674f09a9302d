// Package sched implements the topology-blind scheduling family: the
// single-queue orderings, Chu's Immediate Fit, Scan All and Multiple
// Queues, Krueger, Lai and Radiya's Scan, and Das Sharma and Pradhan's
// priority + reservation. Every scheduler works with any allocator.
package sched
