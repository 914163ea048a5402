#include "poll/poll_page.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace launchlab::ui::poll {
namespace {

// The script reads the question from a JSON block (type application/json is never executed); "<" is escaped there
// so that no string can close the block.
QByteArray questionJson(const Question& q, const QString& code) {
  QJsonObject o;
  o["code"] = code;
  o["kind"] = q.kind == Question::Kind::Choice ? "choice" : "number";
  o["unit"] = q.unit;
  o["min"] = q.min;
  o["max"] = q.max;
  o["choices"] = QJsonArray::fromStringList(q.choices);
  QByteArray j = QJsonDocument(o).toJson(QJsonDocument::Compact);
  j.replace("<", "\\u003c");
  return j;
}

constexpr const char* kStyle = R"(
body{font:20px/1.4 system-ui,sans-serif;margin:0;padding:16px;background:#fafafa;color:#111}
main{max-width:560px;margin:0 auto}
h1{font-size:26px;line-height:1.3;margin:8px 0 20px}
.row{display:flex;gap:10px;align-items:center}
input{font-size:26px;padding:12px;width:100%;box-sizing:border-box;border:2px solid #555;border-radius:8px}
button{font-size:22px;padding:16px;min-height:56px;border-radius:8px;border:2px solid #1f5fa8;background:#fff;
color:#1f5fa8;cursor:pointer;width:100%;margin:6px 0}
button.go{background:#1f5fa8;color:#fff}
button:focus,input:focus{outline:4px solid #f0a020}
#unit{font-size:22px;white-space:nowrap}
#msg{margin-top:16px;font-size:20px;min-height:28px}
.ok{color:#16703a}.bad{color:#b00020}
)";

constexpr const char* kScript = R"(
(function(){
var q=JSON.parse(document.getElementById('q').textContent);
var key='launchlab-token';
var t=localStorage.getItem(key);
if(!t||!/^[0-9a-f]{32}$/.test(t)){var b=new Uint8Array(16);crypto.getRandomValues(b);
t=Array.prototype.map.call(b,function(x){return('0'+x.toString(16)).slice(-2);}).join('');localStorage.setItem(key,t);}
var msg=document.getElementById('msg');
function say(text,cls){msg.textContent=text;msg.className=cls;}
function send(a){
var x=new XMLHttpRequest();x.open('POST','/'+q.code+'/answer');x.setRequestHeader('Content-Type','application/json');
x.onload=function(){if(x.status===204||x.status===200)say('Answer received. You can change it until the reveal.','ok');
else if(x.status===429)say('Wait a moment before changing your answer.','bad');
else if(x.status===403)say('This poll has closed.','bad');
else say(x.responseText||'The answer was refused.','bad');};
x.onerror=function(){say('No connection to the poll.','bad');};
x.send(JSON.stringify({t:t,a:a}));}
var box=document.getElementById('input');
if(q.kind==='choice'){q.choices.forEach(function(c,i){var b=document.createElement('button');b.type='button';
b.textContent=c;b.onclick=function(){send(i);};box.appendChild(b);});}
else{var f=document.createElement('form');var r=document.createElement('div');r.className='row';
var n=document.createElement('input');n.type='number';n.step='any';n.min=q.min;n.max=q.max;n.required=true;
n.inputMode='decimal';n.setAttribute('aria-label','your answer');var u=document.createElement('span');u.id='unit';
u.textContent=q.unit;r.appendChild(n);r.appendChild(u);var s=document.createElement('button');s.className='go';
s.textContent='Send';f.appendChild(r);f.appendChild(s);
f.onsubmit=function(e){e.preventDefault();var v=Number(n.value);
if(!isFinite(v)||n.value===''){say('Type a number.','bad');return;}
if(v<q.min||v>q.max){say('Between '+q.min+' and '+q.max+'.','bad');return;}send(v);};
box.appendChild(f);n.focus();}
})();
)";

}  // namespace

QString htmlEscaped(const QString& s) {
  QString out;
  out.reserve(s.size() + 16);
  for (QChar c : s) {
    switch (c.unicode()) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

QByteArray pageHtml(const Question& q, const QString& code) {
  QByteArray page =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
      "<title>LaunchLab poll</title><style>";
  page += kStyle;
  page += "</style></head><body><main><h1 id=\"question\">";
  page += htmlEscaped(q.text).toUtf8();
  page +=
      "</h1><div id=\"input\"></div><p id=\"msg\" role=\"status\" aria-live=\"polite\"></p></main>"
      "<script type=\"application/json\" id=\"q\">";
  page += questionJson(q, code);
  page += "</script><script>";
  page += kScript;
  page += "</script></body></html>";
  return page;
}

}  // namespace launchlab::ui::poll
