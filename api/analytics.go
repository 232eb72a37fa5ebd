package api

import (
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// statsViewer loads the viewer of the path for the caller; another
// account's viewer answers 404 like a missing one.
func (s *Server) statsViewer(c *gin.Context) (*kiln.Viewer, error) {
	token := c.Param("viewerToken")
	if err := kiln.CheckID("viewerToken", token); err != nil {
		return nil, err
	}
	v, err := s.Analytics.Viewer(c.Request.Context(), token)
	return owned(c, v, err, kiln.Errorf(kiln.KindNotFound, "viewer_not_found", "no viewer with token %s", token))
}

var backtoPattern = regexp.MustCompile(`^(\d{1,4}) ?(day|week|month|year)s?$`)

// periods splits the range that backto reaches into UTC periods of scale
// ending with the one that holds today. The range starts at the start of
// the period that holds its first day, so every period is whole but the
// current one.
func periods(today time.Time, backto, scale string) ([]kiln.Period, error) {
	m := backtoPattern.FindStringSubmatch(strings.ToLower(strings.TrimSpace(backto)))
	if m == nil {
		return nil, invalidf("invalid_backto", "backto must be a count and a unit such as '30 days', '12 weeks', '3 months' or '1 year', got %q", backto)
	}
	n, _ := strconv.Atoi(m[1])
	if n < 1 {
		return nil, invalidf("invalid_backto", "backto must reach at least 1 %s back", m[2])
	}
	var first time.Time
	switch m[2] {
	case "day":
		first = today.AddDate(0, 0, 1-n)
	case "week":
		first = today.AddDate(0, 0, 1-7*n)
	case "month":
		first = today.AddDate(0, -n, 1)
	case "year":
		first = today.AddDate(-n, 0, 1)
	}
	if today.Sub(first) > kiln.MaxAnalyticsDays*24*time.Hour {
		return nil, invalidf("invalid_backto", "backto reaches at most %d days back, got %q", kiln.MaxAnalyticsDays, backto)
	}
	var next func(time.Time) time.Time
	switch scale {
	case "day":
		next = func(d time.Time) time.Time { return d.AddDate(0, 0, 1) }
	case "week":
		// ISO weeks: Monday to Sunday.
		first = first.AddDate(0, 0, -((int(first.Weekday()) + 6) % 7))
		next = func(d time.Time) time.Time { return d.AddDate(0, 0, 7) }
	case "month":
		first = time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, time.UTC)
		next = func(d time.Time) time.Time { return d.AddDate(0, 1, 0) }
	default:
		return nil, invalidf("invalid_scale", "scale must be day, week or month, got %q", scale)
	}
	var out []kiln.Period
	for d := first; !d.After(today); d = next(d) {
		last := next(d).AddDate(0, 0, -1)
		if last.After(today) {
			last = today
		}
		out = append(out, kiln.Period{First: d, Last: last})
	}
	return out, nil
}

type periodView struct {
	Start string `json:"start"`
	End   string `json:"end"`
	kiln.PeriodStats
}

// views answers views and visitors per period of the viewer.
func (s *Server) views(c *gin.Context) {
	v, err := s.statsViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	backto := c.DefaultQuery("backto", "30 days")
	scale := c.DefaultQuery("scale", "day")
	today := s.now().UTC().Truncate(24 * time.Hour)
	ps, err := periods(today, backto, scale)
	if err != nil {
		fail(c, err)
		return
	}
	stats, total, err := s.Analytics.PeriodStats(c.Request.Context(), v.Token, ps)
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]periodView, len(ps))
	for i, p := range ps {
		out[i] = periodView{Start: p.First.Format(time.DateOnly), End: p.Last.Format(time.DateOnly), PeriodStats: stats[i]}
	}
	c.JSON(http.StatusOK, gin.H{
		"viewerToken": v.Token,
		"backto":      backto,
		"scale":       scale,
		"from":        ps[0].First.Format(time.DateOnly),
		"to":          today.Format(time.DateOnly),
		"periods":     out,
		"totals":      total,
	})
}

// deprecatedViews is the spec's old path for views: the same answer,
// with the headers of RFC 9745 and RFC 8288 that point to the new one.
func (s *Server) deprecatedViews(c *gin.Context) {
	c.Header("Deprecation", "true")
	c.Header("Link", "</viewers/"+c.Param("viewerToken")+"/views>; rel=\"successor-version\"")
	s.views(c)
}

// unixParam reads an optional Unix-seconds query parameter; absent, it is
// def (no bound).
func unixParam(c *gin.Context, name string, def int64) (int64, error) {
	v, ok := c.GetQuery(name)
	if !ok || strings.TrimSpace(v) == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, invalidf("invalid_"+name, "%s must be a Unix time in whole seconds, got %q", name, v)
	}
	return n, nil
}

// visitorSummary answers the KPIs of the sessions whose span overlaps
// [start, end]. The viewer is looked up before the plan is checked, so a
// key without Pro learns only about its own viewers.
func (s *Server) visitorSummary(c *gin.Context) {
	start, err := unixParam(c, "start", math.MinInt64)
	if err != nil {
		fail(c, err)
		return
	}
	end, err := unixParam(c, "end", math.MaxInt64)
	if err != nil {
		fail(c, err)
		return
	}
	if start > end {
		fail(c, invalidf("invalid_range", "start (%d) must not be after end (%d)", start, end))
		return
	}
	v, err := s.statsViewer(c)
	if err != nil {
		fail(c, err)
		return
	}
	if p := callerKey(c).Plan; p != kiln.PlanPremium && p != kiln.PlanEnterprise {
		fail(c, kiln.Errorf(kiln.KindForbidden, "plan_required", "the visitor tracking summary needs a Pro plan (premium or enterprise); this account is on %s", p))
		return
	}
	st, err := s.Analytics.SessionStats(c.Request.Context(), v.Token, start, end)
	if err != nil {
		fail(c, err)
		return
	}
	var avg float64
	if st.Sessions > 0 {
		avg = math.Round(float64(st.Seconds)/float64(st.Sessions)*100) / 100
	}
	body := gin.H{
		"viewerToken":            v.Token,
		"start":                  nil,
		"end":                    nil,
		"uniqueVisitors":         st.Visitors,
		"sessionCount":           st.Sessions,
		"averageSessionDuration": avg,
		"totalSessionDuration":   st.Seconds,
	}
	if start != math.MinInt64 {
		body["start"] = start
	}
	if end != math.MaxInt64 {
		body["end"] = end
	}
	c.JSON(http.StatusOK, body)
}
