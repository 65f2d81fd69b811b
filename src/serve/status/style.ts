/** The status page's CSS: one column under ~440 px, nothing wider than the screen (long URLs and rows wrap). */
export const STYLE = `*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1d2330}
header{background:#fff;border-bottom:1px solid #dde1e6;padding:12px 16px}h1{font-size:20px;margin:0 0 4px}header p{margin:4px 0}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px;align-items:baseline}.lang a{padding:2px 6px;color:#1a56b0}.lang a[aria-current]{font-weight:700;color:#1d2330;text-decoration:none}
main{padding:16px}.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,480px),1fr));gap:16px;margin-top:16px}
.band{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px 16px;margin:0 0 16px;min-width:0}.band h2{font-size:18px}.band h3{font-size:15px;margin:8px 0 4px}.band p{margin:4px 0}
.online{margin:0;padding-left:18px}.online li{margin:4px 0;overflow-wrap:anywhere}details.tech{display:inline-block;margin-left:6px;font-size:13px;max-width:100%}details.tech summary{color:#1a56b0;cursor:pointer}details.tech code{display:block;white-space:pre-wrap;background:#f0f2f5;padding:4px;border-radius:4px}
.card{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:12px 16px;min-width:0}h2{font-size:17px;margin:0 0 8px;overflow-wrap:anywhere}
h2 small{font-weight:400;color:#4b5462;font-size:13px}dl{display:grid;grid-template-columns:minmax(6em,10em) minmax(0,1fr);gap:6px 10px;margin:0 0 8px}
@media (max-width:440px){dl{grid-template-columns:minmax(0,1fr)}dt{font-weight:600}main{padding:8px}header{padding:10px 8px}.band{padding:10px 8px}}
dt{color:#4b5462}dd{margin:0;min-width:0}.ok{color:#137333;font-weight:600}.warn{color:#8a4b00;font-weight:600}.bad{color:#b3261e;font-weight:600}
.muted,.reason,.abs{color:#4b5462}.small{font-size:13px}.fetches,.counts,.why{margin:0;padding:0;list-style:none}.counts .n{font-weight:600}
code{font-size:13px;overflow-wrap:anywhere}.url{display:inline-block;max-width:100%;background:#f0f2f5;padding:1px 4px;border-radius:4px}
button{font:inherit;padding:4px 10px;border:1px solid #8a94a3;border-radius:6px;background:#fff;color:#1d2330;cursor:pointer}
a{color:#1a56b0}.search label{display:block;font-weight:600;margin-top:8px}.search .row{display:flex;gap:6px;max-width:560px}
.search input[type=search]{flex:1;min-width:0;font:inherit;padding:5px 8px;border:1px solid #8a94a3;border-radius:6px}
.results{margin-bottom:16px}.results h3{font-size:16px;margin:12px 0 4px;overflow-wrap:anywhere}.results ul{margin:0;padding-left:18px}
pre.row{white-space:pre-wrap;overflow-wrap:anywhere;background:#f0f2f5;padding:6px;border-radius:4px;font-size:12px;max-height:240px;overflow-y:auto;margin:4px 0}
figure{margin:0;max-width:100%;overflow:hidden}figure svg{max-width:100%;height:auto}figcaption{font-size:12px;color:#4b5462}.next code{background:#f0f2f5;padding:1px 4px;border-radius:4px;user-select:all}`;
