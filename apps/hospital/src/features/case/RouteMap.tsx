/**
 * The route so far on a map. Loaded only with the case detail page (Leaflet is most of its weight).
 * Tiles come from the server's MAP_TILE_URL, read at run time (the same setting opens the CSP to that
 * tile server); without it, or when tiles cannot load — no network to the tile server — the page says so
 * and the positions and distance below the map still tell the story.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CircleMarker, MapContainer, Polyline, TileLayer, Tooltip } from 'react-leaflet';
import type { GeoPoint, TimedPoint } from '@inbound/contract';
import 'leaflet/dist/leaflet.css';
import { api } from '../../lib/client';

const ATTRIBUTION = '&copy; OpenStreetMap contributors';

export default function RouteMap({ route, hospital }: { route: TimedPoint[]; hospital: GeoPoint | null }) {
  const [tilesFailed, setTilesFailed] = useState(false);
  // A deployment setting: fetched once per page load.
  const settings = useQuery({
    queryKey: ['console-settings'],
    queryFn: () => api('consoleSettings'),
    staleTime: Infinity,
  });
  const tileUrl = settings.data?.mapTileUrl ?? null;
  const points: [number, number][] = route.map((p) => [p.latitude, p.longitude]);
  const all = hospital ? [...points, [hospital.latitude, hospital.longitude] as [number, number]] : points;
  if (all.length === 0) return null;
  const last = points.at(-1);
  return (
    <div className="route-map">
      <MapContainer
        bounds={all.length > 1 ? all : undefined}
        center={all.length === 1 ? all[0] : undefined}
        zoom={all.length === 1 ? 13 : undefined}
        boundsOptions={{ padding: [30, 30] }}
        scrollWheelZoom={false}
        className="route-map-canvas"
      >
        {tileUrl && (
          <TileLayer
            url={tileUrl}
            attribution={ATTRIBUTION}
            eventHandlers={{ tileerror: () => setTilesFailed(true) }}
          />
        )}
        {points.length > 1 && <Polyline positions={points} pathOptions={{ color: '#0b5f8a', weight: 5 }} />}
        {last && (
          <CircleMarker center={last} radius={10} pathOptions={{ color: '#fff', fillColor: '#b3001b', fillOpacity: 1 }}>
            <Tooltip permanent direction="top">
              Ambulance
            </Tooltip>
          </CircleMarker>
        )}
        {hospital && (
          <CircleMarker
            center={[hospital.latitude, hospital.longitude]}
            radius={10}
            pathOptions={{ color: '#fff', fillColor: '#0f3d5e', fillOpacity: 1 }}
          >
            <Tooltip permanent direction="top">
              Hospital
            </Tooltip>
          </CircleMarker>
        )}
      </MapContainer>
      {tilesFailed && (
        <p className="map-note" role="status">
          Map tiles could not be loaded; the route and positions are drawn without a background map.
        </p>
      )}
      {settings.isSuccess && !tileUrl && (
        <p className="map-note" role="status">
          No map tile server is configured; the route and positions are drawn without a background map.
        </p>
      )}
    </div>
  );
}
