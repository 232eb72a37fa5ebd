package api

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics counts requests per route (the route pattern, not the path, so
// ids do not explode the label set).
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// rateLimited counts the requests a Limiter refused, by limit.
	rateLimited *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kiln_http_requests_total",
			Help: "HTTP requests answered, by listener, method, route and status.",
		}, []string{"listener", "method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kiln_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by listener and route.",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 9),
		}, []string{"listener", "route"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kiln_rate_limited_total",
			Help: "Requests answered 429 rate_limited, by limit.",
		}, []string{"limit"}),
	}
	reg.MustRegister(m.requests, m.duration, m.rateLimited)
	return m
}

func (m *metrics) observe(listener, method, route string, status int, d time.Duration) {
	m.requests.WithLabelValues(listener, method, route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(listener, route).Observe(d.Seconds())
}
