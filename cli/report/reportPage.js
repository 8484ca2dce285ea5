/* global document, window, Chart */
// The report page's own script (runs in the browser, offline): draws every chart from the JSON the
// page embeds. Charts are Chart.js instances, also exposed as window.glacierReport.charts, so a test
// can read what was drawn. No animation: the page is complete as soon as it has loaded.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var palette = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#9333ea', '#ea580c', '#0d9488', '#4f46e5'];
  var color = function (i) { return palette[i % palette.length]; };
  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = 'system-ui, sans-serif';
  // A bar for a small value next to a large one stays visible.
  Chart.defaults.datasets.bar.minBarLength = 3;
  var charts = {};

  function draw(id, config) {
    var canvas = document.querySelector('canvas[data-chart="' + id + '"]');
    if (!canvas) return;
    charts[id] = new Chart(canvas, config);
  }

  function unique(values) {
    var seen = [];
    values.forEach(function (v) { if (seen.indexOf(v) < 0) seen.push(v); });
    return seen;
  }

  /** Rows of (series, x, y) -> labels (sorted x) and one dataset per series, null where a series has no value. */
  function seriesBy(rows, seriesKey, xKey, yKey, type) {
    var labels = unique(rows.map(function (r) { return r[xKey]; })).sort();
    var names = unique(rows.map(function (r) { return r[seriesKey]; }));
    var datasets = names.map(function (name, i) {
      var values = labels.map(function (x) {
        var hit = rows.filter(function (r) { return r[seriesKey] === name && r[xKey] === x; })[0];
        return hit ? hit[yKey] : null;
      });
      return { label: String(name), data: values, backgroundColor: color(i), borderColor: color(i), pointRadius: 3, type: type };
    });
    return { labels: labels, datasets: datasets };
  }

  var axisTitle = function (text) { return { display: true, text: text }; };

  // Coverage: rows per stream, from the partitions' checkpoints.
  var streams = unique(data.partitions.map(function (p) { return p.stream; }));
  draw('rows-per-stream', {
    type: 'bar',
    data: {
      labels: streams,
      datasets: [{
        label: 'rows loaded',
        backgroundColor: color(0),
        data: streams.map(function (s) {
          return data.partitions.filter(function (p) { return p.stream === s; }).reduce(function (n, p) { return n + Number(p.rows); }, 0);
        }),
      }],
    },
    // Streams differ by orders of magnitude (blocks vs balances snapshots): a log scale shows them all.
    options: { scales: { y: { type: 'logarithmic', title: axisTitle('rows (log scale)') } } },
  });

  // EVM chains and primary-network chains cover very different spans of days: one chart each.
  var isEvm = function (r) { return String(r.chain).indexOf('evm ') === 0; };
  draw('daily-transactions', {
    type: 'line',
    data: seriesBy(data.dailyTransactions.filter(isEvm), 'chain', 'day', 'transactions'),
    options: { scales: { y: { beginAtZero: true, title: axisTitle('transactions per day') } } },
  });
  draw('daily-pn-transactions', {
    type: 'line',
    data: seriesBy(data.dailyTransactions.filter(function (r) { return !isEvm(r); }), 'chain', 'day', 'transactions'),
    options: { scales: { y: { beginAtZero: true, title: axisTitle('transactions per day') } } },
  });

  draw('daily-token-transfers', {
    type: 'line',
    data: seriesBy(data.dailyTokenTransfers, 'chain', 'day', 'transfers'),
    options: { scales: { y: { beginAtZero: true, title: axisTitle('token transfers per day') } } },
  });

  draw('validator-stake', {
    type: 'bar',
    data: {
      labels: data.validatorStake.map(function (v) { return v.node_id; }),
      datasets: [
        { label: 'staked (AVAX)', backgroundColor: color(0), data: data.validatorStake.map(function (v) { return v.staked_avax; }) },
        { label: 'delegated (AVAX)', backgroundColor: color(3), data: data.validatorStake.map(function (v) { return v.delegated_avax; }) },
      ],
    },
    options: { scales: { x: { stacked: true, ticks: { display: false } }, y: { stacked: true, beginAtZero: true, title: axisTitle('AVAX') } } },
  });

  var status = seriesBy(data.validatorStatus, 'status', 'at', 'validations');
  draw('validator-status', {
    type: 'bar',
    data: status,
    options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: axisTitle('validations') } } },
  });

  draw('rewards-per-address', {
    type: 'bar',
    data: {
      labels: data.rewardsPerAddress.map(function (r) { return r.address + ' (' + r.asset + ')'; }),
      datasets: [{ label: 'rewards received', backgroundColor: color(2), data: data.rewardsPerAddress.map(function (r) { return r.amount; }) }],
    },
    options: { indexAxis: 'y', scales: { x: { beginAtZero: true, title: axisTitle('amount') } } },
  });

  var runLabel = {};
  data.syncRuns.forEach(function (r, i) { runLabel[r.run_id] = '#' + (i + 1) + ' ' + r.mode; });
  var cuRuns = data.syncRuns.map(function (r) { return r.run_id; }).filter(function (id) { return data.cu.some(function (c) { return c.run_id === id; }); });
  var cu = {
    labels: cuRuns.map(function (id) { return runLabel[id]; }),
    datasets: unique(data.cu.map(function (c) { return c.stream; })).map(function (stream, i) {
      return {
        label: stream,
        backgroundColor: color(i),
        data: cuRuns.map(function (id) {
          var hit = data.cu.filter(function (c) { return c.run_id === id && c.stream === stream; })[0];
          return hit ? hit.cu : null;
        }),
      };
    }),
  };
  draw('cu-per-run', {
    type: 'bar',
    data: cu,
    options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: axisTitle('CU') } } },
  });

  var runs = data.syncRuns.map(function (r) { return runLabel[r.run_id]; });
  draw('sync-rows-pages', {
    type: 'bar',
    data: {
      labels: runs,
      datasets: [
        { label: 'rows', yAxisID: 'y', backgroundColor: color(0), data: data.syncRuns.map(function (r) { return r.rows; }) },
        { label: 'pages', yAxisID: 'y1', backgroundColor: color(3), data: data.syncRuns.map(function (r) { return r.pages; }) },
      ],
    },
    options: { scales: { y: { beginAtZero: true, title: axisTitle('rows') }, y1: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: axisTitle('pages') } } },
  });

  draw('sync-duration', {
    type: 'bar',
    data: { labels: runs, datasets: [{ label: 'duration (s)', backgroundColor: color(4), data: data.syncRuns.map(function (r) { return r.duration_seconds; }) }] },
    options: { scales: { y: { beginAtZero: true, title: axisTitle('seconds') } } },
  });

  // Nights: one point per sync run at the rows the warehouse stored when it ended (a linear x axis:
  // the labels are those row counts, so the distance between points is the growth between nights).
  var nights = data.nights.filter(function (n) { return n.mode === 'sync'; });
  var stored = nights.map(function (n) { return n.rows_stored; });
  var nightAxis = { type: 'linear', title: axisTitle('rows stored at the end of the run') };
  var nightTitle = function (items) { return items.length ? 'night ' + (items[0].dataIndex + 1) + ' (' + nights[items[0].dataIndex].started + ')' : ''; };
  var nightLine = function (label, i, key, axis) {
    return { label: label, yAxisID: axis, backgroundColor: color(i), borderColor: color(i), pointRadius: 3, data: nights.map(function (n) { return n[key]; }) };
  };
  draw('nights-cost', {
    type: 'line',
    data: { labels: stored, datasets: [nightLine('CU', 0, 'cu', 'y'), nightLine('requests', 3, 'requests', 'y1'), nightLine('rows written', 2, 'rows_written', 'y1')] },
    options: {
      plugins: { tooltip: { callbacks: { title: nightTitle } } },
      scales: { x: nightAxis, y: { beginAtZero: true, title: axisTitle('CU') }, y1: { position: 'right', beginAtZero: true, grid: { drawOnChartArea: false }, title: axisTitle('requests, rows written') } },
    },
  });
  draw('nights-time', {
    type: 'line',
    data: { labels: stored, datasets: [nightLine('sync (s)', 4, 'sync_seconds', 'y'), nightLine('export (s)', 5, 'export_seconds', 'y'), nightLine('sync + export (s)', 1, 'wall_seconds', 'y')] },
    options: { plugins: { tooltip: { callbacks: { title: nightTitle } } }, scales: { x: nightAxis, y: { beginAtZero: true, title: axisTitle('seconds') } } },
  });

  window.glacierReport = { charts: charts, data: data };
  document.body.dataset.ready = 'true';
})();
