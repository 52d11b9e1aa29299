import { Text } from "@medusajs/ui"
import type { Funnel } from "../api"
import { percent, qar } from "../api"

/**
 * Paid QAR per day (bars) and conversion per day (line), as a small SVG of our own: two series on
 * at most 366 days need no charting library, and none ships with Medusa's admin (a library such as
 * recharts would add hundreds of kB to every merchant's dashboard bundle for one chart). Colours are
 * the admin's own CSS variables, so it follows the light and dark themes.
 */
export const DailyChart = ({ daily }: { daily: Funnel["daily"] }) => {
  const width = 720
  const height = 180
  const pad = { left: 8, right: 8, top: 10, bottom: 22 }
  // Hundredths as integers: heights are drawn, never added to money.
  const cents = daily.map((d) => Number(d.paid.replace(".", "")))
  const max = Math.max(1, ...cents)
  const step = (width - pad.left - pad.right) / Math.max(1, daily.length)
  const plotH = height - pad.top - pad.bottom
  const y = (v: number) => pad.top + plotH - (v / max) * plotH
  const line = daily
    .map((d, i) => (d.conversion === null ? null : `${pad.left + step * (i + 0.5)},${pad.top + plotH - d.conversion * plotH}`))
    .filter(Boolean)
    .join(" ")
  const labelEvery = Math.ceil(daily.length / 8)
  return (
    <div className="px-6 py-4" data-testid="paylater-daily-chart">
      <svg viewBox={`0 0 ${width} ${height}`} className="w-full" role="img" aria-label="Paid QAR and conversion per day">
        {daily.map((d, i) => (
          <rect
            key={d.date}
            x={pad.left + step * i + step * 0.15}
            y={y(cents[i])}
            width={Math.max(1, step * 0.7)}
            height={pad.top + plotH - y(cents[i])}
            fill="var(--fg-interactive)"
            opacity={0.75}
          >
            <title>{`${d.date}: ${qar(d.paid)} in ${d.payments} payments; conversion ${percent(d.conversion)} (${d.converted}/${d.started})`}</title>
          </rect>
        ))}
        {line && <polyline points={line} fill="none" stroke="var(--fg-base)" strokeWidth={1.5} />}
        {daily.map((d, i) =>
          i % labelEvery === 0 ? (
            <text key={d.date} x={pad.left + step * (i + 0.5)} y={height - 6} fontSize={10} textAnchor="middle" fill="var(--fg-subtle)">
              {d.date.slice(5)}
            </text>
          ) : null
        )}
      </svg>
      <Text size="xsmall" className="text-ui-fg-subtle">
        Bars: paid QAR per day (highest {qar(daily[cents.indexOf(max)]?.paid ?? "0.00")}). Line: conversion per day, 0–100%, of the checkouts that started that day.
      </Text>
    </div>
  )
}
